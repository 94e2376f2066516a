// A zone whose edges cross, on a phone: drawn by tapping its corners in the AI sheet's Detections tab (Zones & Lines),
// or made by dragging a saved zone's corner with a finger, it is refused with the reason under the drawing or in the
// zone's form, and never saved. (The desktop's twin: studio-local-regions.spec.ts.)
import type { CDPSession, Locator, Page } from "@playwright/test";
import type { Zone } from "#app/schemas/local-vision";
import { ZONE_EDGES_CROSS } from "#app/studio/local-vision/region-geometry";
import { expect, signUpInBrowser, test } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

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
  await expect.poll(() => page.getByTestId("preview-video").evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 15_000 }).toBeGreaterThan(0);
}

/** The Zones & Lines section in the bottom bar's AI sheet, Detections tab, local detection picked. */
async function openZonesAndLinesOnPhone(page: Page): Promise<Locator> {
  await page.getByRole("navigation", { name: "Studio (mobile)" }).getByRole("button", { name: "AI" }).tap();
  const sheet = page.getByRole("dialog", { name: "AI" });
  await sheet.getByRole("tab", { name: "Detections" }).tap();
  await sheet.getByRole("radio", { name: "Local (no key, 80 everyday objects)" }).tap();
  const section = sheet.getByTestId("zones-lines");
  await expect(section.getByText("No zones or lines on this camera yet.")).toBeVisible();
  return section;
}

async function pictureAt(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = (await page.getByTestId("picture-area").boundingBox())!;
  return { x: box.x + x * box.width, y: box.y + y * box.height };
}

async function stored(page: Page): Promise<Zone[]> {
  const [camera] = (await (await page.request.get("/api/cameras")).json()) as Array<{ id: string }>;
  return (await (await page.request.get(`/api/cameras/${camera!.id}/zones`)).json()) as Zone[];
}

/** A finger put down at `from`, moved in steps to `to` and lifted (real touch events, as a phone sends). */
async function touchDrag(cdp: CDPSession, from: { x: number; y: number }, to: { x: number; y: number }) {
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [from] });
  for (let i = 1; i <= 6; i++) {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: from.x + ((to.x - from.x) * i) / 6, y: from.y + ((to.y - from.y) * i) / 6 }] });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

test("a zone whose edges cross is refused on a phone, drawn by tapping or dragged by a finger", async ({ page }) => {
  await signUpInBrowser(page);
  await addWebcamOnPhone(page);
  const section = await openZonesAndLinesOnPhone(page);
  const problem = section.getByTestId("zone-shape-problem");
  const tapAt = async (x: number, y: number) => {
    const p = await pictureAt(page, x, y);
    await page.touchscreen.tap(p.x, p.y);
  };

  // Corners tapped across the square: Done would close a bow-tie, so the drawing stays open with the reason.
  await section.getByRole("button", { name: "Draw zone" }).tap();
  for (const [x, y] of [
    [0.1, 0.1],
    [0.9, 0.1],
    [0.1, 0.9],
    [0.9, 0.9],
  ] as const)
    await tapAt(x, y);
  await section.getByRole("button", { name: "Done" }).tap();
  await expect(problem).toHaveText(ZONE_EDGES_CROSS);
  await expect(problem).toBeInViewport();
  await expect(section.getByTestId("region-drawing")).toBeVisible();
  expect(await stored(page)).toEqual([]);

  // Tapped in order round the square, it is taken and the reason goes.
  await section.getByRole("button", { name: "Cancel" }).tap();
  await section.getByRole("button", { name: "Draw zone" }).tap();
  for (const [x, y] of [
    [0.1, 0.1],
    [0.9, 0.1],
    [0.9, 0.9],
    [0.1, 0.9],
  ] as const)
    await tapAt(x, y);
  await section.getByRole("button", { name: "Done" }).tap();
  await expect(section.getByTestId("zone-row")).toHaveCount(1);
  await expect(problem).toBeHidden();
  const [square] = await stored(page);

  // A finger drags the third corner across the far edge: the form says why, and the square is what stays.
  const cdp = await page.context().newCDPSession(page);
  const corner = page.getByRole("button", { name: "Move corner 3 of Zone 1 (drag, or arrow keys)" });
  const c = (await corner.boundingBox())!;
  await touchDrag(cdp, { x: c.x + c.width / 2, y: c.y + c.height / 2 }, await pictureAt(page, 0.05, 0.6));
  await cdp.detach();
  await expect(section.getByTestId("region-form").getByTestId("zone-shape-problem")).toHaveText(ZONE_EDGES_CROSS);
  const back = await pictureAt(page, 0.9, 0.9);
  const cornerOffBy = async () => {
    const box = (await corner.boundingBox())!;
    return Math.hypot(box.x + box.width / 2 - back.x, box.y + box.height / 2 - back.y);
  };
  await expect.poll(cornerOffBy).toBeLessThan(3);
  expect(await stored(page)).toEqual([square]);
});
