// Cameras and counting on a phone: the AI sheet holds the desktop panel's AI, Detections, Assistant and Automate
// tabs and leaves the whole picture in view above it; local detection is switched on there, lines and zones are
// drawn and edited by touch on the picture, the Counts panel and the Monitors section are reachable.
import type { CDPSession, Locator, Page } from "@playwright/test";
import type { Line, Zone } from "#app/schemas/local-vision";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, fakeCameraFlags } from "../support/chromium";
import { PEOPLE_VIDEO_FILE, peopleVideoY4m } from "../support/people-video";
import { expect, signUpInBrowser, test, toastWith } from "./fixtures";
import { seedIpCamera } from "./seed";

const VIEWPORT = { width: 390, height: 844 };
test.describe.configure({ timeout: 150_000 }); // the model loads and compiles in seconds on 2 busy cores
test.beforeAll(async () => {
  await peopleVideoY4m();
});
// The fake webcam shows people walking past (the browser starts after beforeAll has written the video).
test.use({ viewport: VIEWPORT, hasTouch: true, launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...fakeCameraFlags(PEOPLE_VIDEO_FILE)] } });

/** The bottom bar's AI sheet (opened if it is not). */
async function openAiSheet(page: Page): Promise<Locator> {
  const sheet = page.getByRole("dialog", { name: "AI" });
  if (!(await sheet.isVisible())) await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "AI" }).tap();
  await expect(sheet).toBeVisible();
  return sheet;
}

/** Adds the fake webcam from the settings menu (the phone has no camera sidebar) and waits until it plays. */
async function addWebcamOnPhone(page: Page) {
  await page.getByRole("button", { name: "Menu" }).tap();
  const menu = page.getByRole("dialog", { name: "Settings" });
  await menu.getByRole("button", { name: "Add Camera" }).tap();
  await page.getByRole("menuitem", { name: "Add Camera" }).tap();
  await page.getByRole("button", { name: "Select Webcam" }).tap();
  await page.getByRole("dialog", { name: "Select Webcam" }).getByRole("listitem").first().getByRole("button").tap();
  await expect(menu.getByTestId("camera-card")).toHaveCount(1);
  await menu.getByRole("button", { name: "Close" }).tap();
  await expect.poll(() => page.getByTestId("preview-video").evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 15_000 }).toBe(640);
}

/** Where a normalised point of the picture is on the page. */
async function pictureAt(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = (await page.getByTestId("picture-area").boundingBox())!;
  return { x: box.x + x * box.width, y: box.y + y * box.height };
}

/** A finger put down at `from`, moved in steps to `to` and lifted (real touch events, as a phone sends). */
async function touchDrag(cdp: CDPSession, from: { x: number; y: number }, to: { x: number; y: number }) {
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [from] });
  for (let i = 1; i <= 6; i++) {
    const at = { x: from.x + ((to.x - from.x) * i) / 6, y: from.y + ((to.y - from.y) * i) / 6 };
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [at] });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

async function stored<T extends Line | Zone>(page: Page, kind: "lines" | "zones"): Promise<T[]> {
  const [camera] = (await (await page.request.get("/api/cameras")).json()) as Array<{ id: string }>;
  return (await (await page.request.get(`/api/cameras/${camera!.id}/${kind}`)).json()) as T[];
}

/** The picture lies wholly between the top bar and the sheet: the sheet covers none of it. */
async function expectPictureClearOf(page: Page, sheet: Locator) {
  const picture = (await page.getByTestId("picture-area").boundingBox())!;
  const sheetBox = (await sheet.boundingBox())!;
  expect(picture.height).toBeGreaterThan(200);
  expect(picture.y).toBeGreaterThanOrEqual(0);
  expect(picture.y + picture.height).toBeLessThanOrEqual(sheetBox.y + 0.5);
}

test("local detection, lines and zones drawn and edited by touch, and the Counts panel, with the picture in view", async ({ page }) => {
  await signUpInBrowser(page);
  await addWebcamOnPhone(page);
  const sheet = await openAiSheet(page);

  // The sheet takes at most 45 % of the screen and the preview stands above it.
  expect((await sheet.boundingBox())!.height).toBeLessThanOrEqual(VIEWPORT.height * 0.45 + 1);
  await expectPictureClearOf(page, sheet);

  await sheet.getByRole("tab", { name: "Detections" }).tap();
  await sheet.getByRole("radio", { name: "Local (no key, 80 everyday objects)" }).tap();
  const zonesLines = sheet.getByTestId("zones-lines");
  await expect(zonesLines.getByText("No zones or lines on this camera yet.")).toBeVisible();

  const cdp = await page.context().newCDPSession(page);
  // A line dragged with a finger down the picture.
  await zonesLines.getByRole("button", { name: "Draw line" }).tap();
  await expectPictureClearOf(page, sheet);
  await touchDrag(cdp, await pictureAt(page, 0.5, 0.1), await pictureAt(page, 0.5, 0.9));
  await expect(zonesLines.getByTestId("line-row")).toHaveCount(1);
  const [dragged] = await stored<Line>(page, "lines");
  expect(dragged!.a.x).toBeCloseTo(0.5, 1);
  expect(dragged!.a.y).toBeCloseTo(0.1, 1);
  expect(dragged!.b.y).toBeCloseTo(0.9, 1);

  // A second line by tapping its two ends.
  await zonesLines.getByRole("button", { name: "Close Line 1" }).tap();
  await zonesLines.getByRole("button", { name: "Draw line" }).tap();
  for (const [x, y] of [
    [0.2, 0.2],
    [0.8, 0.3],
  ] as const) {
    const p = await pictureAt(page, x, y);
    await page.touchscreen.tap(p.x, p.y);
  }
  await expect(zonesLines.getByTestId("line-row")).toHaveCount(2);
  const tapped = (await stored<Line>(page, "lines")).find((line) => line.name === "Line 2")!;
  expect(tapped.a.x).toBeCloseTo(0.2, 1);
  expect(tapped.b.x).toBeCloseTo(0.8, 1);
  expect(tapped.b.y).toBeCloseTo(0.3, 1);

  // The new line opens for editing: its end is dragged to a new place with a finger.
  const end = page.getByRole("button", { name: "Move the end of Line 2 (drag, or arrow keys)" });
  const from = (await end.boundingBox())!;
  await touchDrag(cdp, { x: from.x + from.width / 2, y: from.y + from.height / 2 }, await pictureAt(page, 0.7, 0.6));
  await expect.poll(async () => (await stored<Line>(page, "lines")).find((line) => line.name === "Line 2")!.b.y, { timeout: 10_000 }).toBeCloseTo(0.6, 1);
  const moved = (await stored<Line>(page, "lines")).find((line) => line.name === "Line 2")!;
  expect(moved.b.x).toBeCloseTo(0.7, 1);
  expect(moved.a).toEqual(tapped.a);
  // Its form says in plain words how it counts and what each setting does, within the phone's width.
  const explained = zonesLines.getByTestId("line-form-explained");
  await expect(explained).toHaveText(/^Every time someone crosses the line counts/);
  expect((await explained.boundingBox())!.width).toBeLessThanOrEqual(VIEWPORT.width);
  await expect(zonesLines.getByLabel("Frames past the line before it counts")).toHaveAccessibleDescription(/^1 counts someone as soon as they are seen past the line\./);

  // A zone by tapping its corners, closed by tapping the first one again.
  await zonesLines.getByRole("button", { name: "Close Line 2" }).tap();
  await zonesLines.getByRole("button", { name: "Draw zone" }).tap();
  for (const [x, y] of [
    [0.05, 0.05],
    [0.4, 0.05],
    [0.4, 0.5],
    [0.05, 0.5],
    [0.05, 0.05],
  ] as const) {
    const p = await pictureAt(page, x, y);
    await page.touchscreen.tap(p.x, p.y);
  }
  await expect(zonesLines.getByTestId("zone-row")).toHaveCount(1);
  expect((await stored<Zone>(page, "zones"))[0]!.polygon).toHaveLength(4);
  await cdp.detach();

  // Local detection switched on from the sheet runs, the picture still in view.
  await sheet.getByRole("switch", { name: "Enable Local Detection" }).tap();
  await expect(sheet.getByTestId("local-backend")).toHaveText(/^Running on /, { timeout: 90_000 });
  await expect(page.getByTestId("detection-canvas")).toHaveAttribute("data-kind", "local");
  await expectPictureClearOf(page, sheet);

  // The Counts panel lists the lines and the zone, and fits the phone's width.
  const counts = sheet.getByTestId("counts-panel");
  await counts.scrollIntoViewIfNeeded();
  // The panel follows the lines and zones drawn above at once (issue 27: no wait for its 30 s refresh).
  await expect(counts.getByRole("table", { name: "Counts" })).toBeVisible();
  for (const name of ["Line 1", "Line 2", "Zone 1"]) await expect(counts.getByRole("rowheader", { name })).toBeVisible();
  const countsBox = (await counts.boundingBox())!;
  expect(countsBox.x).toBeGreaterThanOrEqual(0);
  expect(countsBox.x + countsBox.width).toBeLessThanOrEqual(VIEWPORT.width);

  // Minimised, the sheet folds to its title, the picture still clear of it; expanded, it is as it was.
  await sheet.getByRole("button", { name: "Minimise AI" }).tap();
  await expect(sheet.getByRole("tab", { name: "Detections" })).toBeHidden();
  await expect.poll(async () => (await sheet.boundingBox())!.height).toBeLessThan(80);
  await expectPictureClearOf(page, sheet);
  await sheet.getByRole("button", { name: "Expand AI" }).tap();
  await expect(sheet.getByRole("switch", { name: "Enable Local Detection" })).toHaveAttribute("aria-checked", "true");
});

test("the AI sheet's Automate tab starts a monitor and lists it; auto-capture names a tab the phone has; people counts and IP cameras are reachable", async ({ page }) => {
  const { username } = await signUpInBrowser(page);
  await seedIpCamera(username, "Rack cam 1");
  await page.reload();
  const sheet = await openAiSheet(page);
  await sheet.getByRole("tab", { name: "Automate" }).tap();
  const section = sheet.getByRole("region", { name: "Monitors" });
  await expect(section.getByText("No monitors yet")).toBeVisible();
  const form = sheet.getByRole("form", { name: "New monitor" });
  await expect(form.getByLabel("IP camera").locator("option")).toHaveText(["Rack cam 1"]);
  await form.getByLabel("Detect").fill("person");
  await form.getByLabel("Interval (seconds)").fill("3600");
  await form.getByRole("button", { name: "Start monitor" }).tap();
  await expect(toastWith(page, "Monitor started")).toBeVisible();
  await expect(section.getByRole("listitem", { name: "Auto-capture: person on Rack cam 1" })).toBeVisible();

  // The auto-capture warning sends the user to the Detections tab: the sheet has it, with box detection inside.
  const autoCapture = sheet.getByTestId("auto-capture");
  await expect(autoCapture.getByRole("note")).toContainText("Detections tab");
  await sheet.getByRole("tab", { name: "Detections" }).tap();
  await sheet.getByRole("radio", { name: "Moondream (any object you can name)" }).tap();
  await expect(sheet.getByRole("switch", { name: "Enable Box Detection" })).toBeVisible();

  // The rest of the desktop's camera tools: alert rules here, the assistant, the PTZ sheet, video and overlays in the menu.
  await sheet.getByRole("tab", { name: "Automate" }).tap();
  await expect(sheet.getByRole("heading", { name: "E-mail and SMS alerts" })).toBeVisible();
  await expect(sheet.getByRole("heading", { name: "Webhook integration" })).toBeVisible();
  await expect(sheet.getByRole("tab", { name: "Assistant" })).toBeVisible();

  // People-count sessions, which the desktop lists in its bottom bar, are in the Photos & Stories sheet.
  const nav = page.getByRole("navigation", { name: "Studio (mobile)" });
  await nav.getByRole("button", { name: "Photos" }).tap();
  const library = page.getByRole("dialog", { name: "Photos & Stories" });
  await library.getByRole("tab", { name: "People Count" }).tap();
  await expect(library.getByText("No people counting sessions yet")).toBeVisible();

  // IP cameras are added from the settings menu's Add Source.
  await page.getByRole("button", { name: "Menu" }).tap();
  await page.getByRole("dialog", { name: "Settings" }).getByRole("button", { name: "Add Camera" }).tap();
  await page.getByRole("menuitem", { name: "Add IP Camera" }).tap();
  await expect(page.getByRole("dialog", { name: "Add IP Camera" })).toBeVisible();
});
