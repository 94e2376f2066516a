// Zones and lines on the real studio: drawn with the mouse on the preview of a fake webcam panning real photos of
// people, stored on the server, counted live by the on-device detector and tracker (a line's in/out, a zone's
// occupancy), and edited by dragging their points.
import type { Locator, Page } from "@playwright/test";
import { DEFAULT_DESCRIBE_PROMPT, type Line, type Zone } from "#app/schemas/local-vision";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../support/chromium";
import { PEOPLE_VIDEO_FILE, peopleVideoY4m } from "../support/people-video";
import { addWebcam, expect, signUpInBrowser, test, toastWith } from "./fixtures";

test.describe.configure({ timeout: 150_000 }); // the model loads and compiles in seconds on 2 busy cores
test.beforeAll(async () => {
  await peopleVideoY4m();
});
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(PEOPLE_VIDEO_FILE)] } });

/** Where a normalised point of the picture is on the page. */
async function pictureAt(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = (await page.getByTestId("picture-area").boundingBox())!;
  return { x: box.x + x * box.width, y: box.y + y * box.height };
}

async function stored<T extends Line | Zone>(page: Page, kind: "lines" | "zones"): Promise<T[]> {
  const [camera] = (await (await page.request.get("/api/cameras")).json()) as Array<{ id: string }>;
  return (await (await page.request.get(`/api/cameras/${camera!.id}/${kind}`)).json()) as T[];
}

async function openZonesAndLines(page: Page): Promise<Locator> {
  await signUpInBrowser(page);
  await addWebcam(page);
  await page.getByRole("tab", { name: "Detections" }).click();
  await page.getByRole("radio", { name: "Local (no key, 80 everyday objects)" }).check();
  const section = page.getByTestId("zones-lines");
  await expect(section.getByText("No zones or lines on this camera yet.")).toBeVisible();
  return section;
}

test("a line drawn across the path counts crossings; a zone reports occupancy", async ({ page }) => {
  const section = await openZonesAndLines(page);
  await expect(section.getByTestId("regions-counting-off")).toBeVisible();

  // The people walk right to left: a line down the middle, drawn top to bottom (dragged past the picture's
  // bottom edge, which keeps the end on it), has its "in" side on the left.
  await section.getByRole("button", { name: "Draw line" }).click();
  const top = await pictureAt(page, 0.5, 0.01);
  const below = await pictureAt(page, 0.5, 1.1);
  await page.mouse.move(top.x, top.y);
  await page.mouse.down();
  await page.mouse.move(below.x, below.y, { steps: 8 });
  await page.mouse.up();
  const lineRow = section.getByTestId("line-row");
  await expect(lineRow.getByTestId("line-row-counter")).toHaveText("Line 1: 0 in · 0 out today");
  const [line] = await stored<Line>(page, "lines");
  expect(line).toMatchObject({ name: "Line 1", labels: ["person"], anchor: "bottom-centre" });
  expect(line!.a.x).toBeCloseTo(0.5, 1);
  expect(line!.b).toEqual({ x: line!.b.x, y: 1 });
  // The overlay shows the line's direction: its "in" and "out" sides.
  await expect(page.getByTestId("region-line").getByText("in", { exact: true })).toBeVisible();
  await expect(page.getByTestId("region-line").getByText("out", { exact: true })).toBeVisible();

  // A zone over the left part of the picture, closed by clicking its first corner; counted by the box's centre.
  await section.getByRole("button", { name: "Draw zone" }).click();
  for (const [x, y] of [
    [0.02, 0.05],
    [0.6, 0.05],
    [0.6, 0.95],
    [0.02, 0.95],
    [0.02, 0.05],
  ] as const) {
    const p = await pictureAt(page, x, y);
    await page.mouse.click(p.x, p.y);
  }
  const form = section.getByTestId("region-form");
  await form.getByLabel("Point of the box that counts").selectOption("centre");
  await form.getByRole("button", { name: "Save" }).click();
  await expect.poll(async () => (await stored<Zone>(page, "zones"))[0]?.anchor).toBe("centre");
  expect((await stored<Zone>(page, "zones"))[0]!.polygon).toHaveLength(4);

  await page.getByRole("switch", { name: "Enable Local Detection" }).click();
  await expect(section.getByTestId("regions-counting-off")).toBeHidden();
  // The counters on the preview: people inside the zone, then people crossing the line leftwards ("in"), today.
  await expect(page.getByTestId("zone-counter")).toHaveText(/^Zone 1: [1-9]\d* inside · \d+ entered today$/, { timeout: 90_000 });
  await expect(page.getByTestId("line-counter")).toHaveText(/^Line 1: [1-9]\d* in · \d+ out today$/, { timeout: 90_000 });
  await expect(lineRow.getByTestId("line-row-counter")).toHaveText(/Line 1: [1-9]\d* in/);

  // Stopped, the counts stay; Reset zeroes them (on the server and on the preview).
  await page.getByRole("switch", { name: "Enable Local Detection" }).click();
  await expect(section.getByTestId("regions-counting-off")).toBeVisible();
  await expect(page.getByTestId("line-counter")).toHaveText(/^Line 1: [1-9]\d* in/);
  page.once("dialog", (dialog) => void dialog.accept());
  await lineRow.getByRole("button", { name: "Edit Line 1" }).click();
  await lineRow.getByRole("button", { name: "Reset counts" }).click();
  await expect(page.getByTestId("line-counter")).toHaveText("Line 1: 0 in · 0 out today");
});

test.describe("editing", () => {
  // The form test sends an empty name on purpose: the browser logs the 400 it gets.
  test.use({ allowConsoleErrors: [/status of 400/] });

  test("lines and zones are edited by dragging their points, and deleted", async ({ page }) => {
    const section = await openZonesAndLines(page);

    // Click two points for a line (no drag), then drag its end to a new place.
    await section.getByRole("button", { name: "Draw line" }).click();
    for (const [x, y] of [
      [0.2, 0.2],
      [0.2, 0.8],
    ] as const) {
      const p = await pictureAt(page, x, y);
      await page.mouse.click(p.x, p.y);
    }
    await expect(section.getByTestId("line-row")).toHaveCount(1);
    const [line] = await stored<Line>(page, "lines");
    expect(line!.a.x).toBeCloseTo(0.2, 1);
    expect(line!.b.y).toBeCloseTo(0.8, 1);
    // A new line opens for editing: its ends are draggable.
    const end = page.getByRole("button", { name: "Move the end of Line 1 (drag, or arrow keys)" });
    const from = (await end.boundingBox())!;
    const to = await pictureAt(page, 0.7, 0.6);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await stored<Line>(page, "lines"))[0]!.b.x, { timeout: 10_000 }).toBeCloseTo(0.7, 1);
    const moved = (await stored<Line>(page, "lines"))[0]!;
    expect(moved.b.y).toBeCloseTo(0.6, 1);
    expect(moved.a).toEqual(line!.a);

    // The line's form: a refusal is shown with the server's message; saved settings reach the server and the overlay.
    const form = section.getByTestId("region-form");
    await form.getByLabel("Name").fill(" ");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(toastWith(page, "Could not save the line")).toContainText("Name is required");
    await form.getByLabel("Name").fill("Door");
    // Each setting says in plain words what it does; a new line counts on the first frame past it.
    await expect(form.getByTestId("line-form-explained")).toHaveText(/^Every time someone crosses the line counts: towards the arrow as in/);
    const settle = form.getByLabel("Frames past the line before it counts");
    await expect(settle).toHaveValue("1");
    await expect(settle).toHaveAccessibleDescription(/Raise it to ignore people who step over and straight back; someone who walks on out of the picture is counted either way\.$/);
    await settle.fill("2");
    await form.getByRole("switch", { name: "Save a photo of each event" }).click();
    await form.getByRole("switch", { name: "Describe with Moondream" }).click();
    await expect(form.getByLabel("Question for Moondream")).toHaveValue(DEFAULT_DESCRIBE_PROMPT);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("line-counter")).toHaveText("Door: 0 in · 0 out today");
    expect((await stored<Line>(page, "lines"))[0]).toMatchObject({ name: "Door", settleFrames: 2, capturePhoto: true, describePrompt: DEFAULT_DESCRIBE_PROMPT, b: moved.b });

    // Escape cancels a zone being drawn; Done closes one.
    await section.getByRole("button", { name: "Draw zone" }).click();
    await page.keyboard.press("Escape");
    await expect(section.getByTestId("region-drawing")).toBeHidden();
    await section.getByRole("button", { name: "Draw zone" }).click();
    for (const [x, y] of [
      [0.5, 0.1],
      [0.9, 0.1],
      [0.9, 0.5],
    ] as const) {
      const p = await pictureAt(page, x, y);
      await page.mouse.click(p.x, p.y);
    }
    await section.getByRole("button", { name: "Done" }).click();
    await expect(section.getByTestId("zone-row")).toHaveCount(1);
    await expect(page.getByTestId("zone-counter")).toHaveText("Zone 1: 0 entered today");
    const corner = page.getByRole("button", { name: "Move corner 3 of Zone 1 (drag, or arrow keys)" });
    const c = (await corner.boundingBox())!;
    const target = await pictureAt(page, 0.6, 0.9);
    await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
    await page.mouse.down();
    await page.mouse.move(target.x, target.y, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await stored<Zone>(page, "zones"))[0]!.polygon[2]!.y, { timeout: 10_000 }).toBeCloseTo(0.9, 1);

    // A click on the preview away from the points still reaches it (click-to-move), not the overlay.
    const away = await pictureAt(page, 0.25, 0.5);
    await page.mouse.click(away.x, away.y);
    await expect(page.getByTestId("picture-area")).toHaveAttribute("data-last-click", "-0.50,0.00");

    // Delete, confirmed.
    page.once("dialog", (dialog) => void dialog.accept());
    await section.getByTestId("zone-row").getByRole("button", { name: "Delete" }).click();
    await expect(section.getByTestId("zone-row")).toHaveCount(0);
    expect(await stored<Zone>(page, "zones")).toEqual([]);
    await expect(page.getByTestId("region-zone")).toHaveCount(0);
  });
});

test("a zone whose edges cross is refused under the drawing and the form, never saved", async ({ page }) => {
  const section = await openZonesAndLines(page);
  const problem = section.getByTestId("zone-shape-problem");
  const crossing = "The zone's edges cross each other: draw its corners in order around the area";
  const clickAt = async (x: number, y: number) => {
    const p = await pictureAt(page, x, y);
    await page.mouse.click(p.x, p.y);
  };

  // Corners placed across the square: closing it would make a bow-tie, so Done keeps it open with the reason.
  await section.getByRole("button", { name: "Draw zone" }).click();
  for (const [x, y] of [
    [0.1, 0.1],
    [0.9, 0.1],
    [0.1, 0.9],
    [0.9, 0.9],
  ] as const)
    await clickAt(x, y);
  await section.getByRole("button", { name: "Done" }).click();
  await expect(problem).toHaveText(crossing);
  await expect(section.getByTestId("region-drawing")).toBeVisible();
  // A corner whose edge would cross the ones drawn is not placed either.
  await clickAt(0.5, 0.05);
  await expect(page.getByTestId("region-draft").locator("circle")).toHaveCount(4);
  await expect(problem).toHaveText(crossing);
  await expect(section.getByTestId("zone-row")).toHaveCount(0);
  expect(await stored<Zone>(page, "zones")).toEqual([]);

  // Drawn in order round the square, it is taken and the message goes.
  await section.getByRole("button", { name: "Cancel" }).click();
  await section.getByRole("button", { name: "Draw zone" }).click();
  for (const [x, y] of [
    [0.1, 0.1],
    [0.9, 0.1],
    [0.9, 0.9],
    [0.1, 0.9],
  ] as const)
    await clickAt(x, y);
  await section.getByRole("button", { name: "Done" }).click();
  await expect(section.getByTestId("zone-row")).toHaveCount(1);
  await expect(problem).toBeHidden();
  const [square] = await stored<Zone>(page, "zones");

  // Its third corner dragged across the far edge makes a bow-tie: the form says why and the square stays.
  const corner = page.getByRole("button", { name: "Move corner 3 of Zone 1 (drag, or arrow keys)" });
  const dragCornerTo = async (x: number, y: number) => {
    const c = (await corner.boundingBox())!;
    const target = await pictureAt(page, x, y);
    await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
    await page.mouse.down();
    await page.mouse.move(target.x, target.y, { steps: 6 });
    await page.mouse.up();
  };
  await dragCornerTo(0.05, 0.6);
  await expect(section.getByTestId("region-form").getByTestId("zone-shape-problem")).toHaveText(crossing);
  // The corner shows where the stored square has it again.
  const back = await pictureAt(page, 0.9, 0.9);
  const cornerOffBy = async () => {
    const c = (await corner.boundingBox())!;
    return Math.hypot(c.x + c.width / 2 - back.x, c.y + c.height / 2 - back.y);
  };
  await expect.poll(cornerOffBy).toBeLessThan(3);
  expect(await stored<Zone>(page, "zones")).toEqual([square]);

  // Dragged to a proper place, it is saved and the message goes.
  await dragCornerTo(0.8, 0.8);
  await expect.poll(async () => (await stored<Zone>(page, "zones"))[0]!.polygon[2]!.x, { timeout: 10_000 }).toBeCloseTo(0.8, 1);
  await expect(problem).toBeHidden();
});
