// Detection, auto-capture and the camera assistant in Chromium with the fake webcam (blue left half,
// yellow right half, a red 80×80 square in the middle of 640×480) and the fake Moondream, which answers
// boxes and points at those markers. Canvas pixels are read where the markers are on screen, computed
// here from the video element's own size (object-fit: contain), independently of the product's code.
import type { Page } from "@playwright/test";
import { addWebcam, aiTab, expect, saveOwnKey, signUpInBrowser, test, toastWith } from "./fixtures";

/** The red square in frame fractions (280–360 × 200–280 of 640×480). */
const RED = { x_min: 280 / 640, y_min: 200 / 480, x_max: 360 / 640, y_max: 280 / 480 };

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name }).click();
}

function toggle(page: Page, name: string) {
  return page.getByRole("switch", { name });
}

async function setBoxQuery(page: Page, query: string) {
  const section = page.getByTestId("box-detection");
  await section.getByRole("button", { name: "Edit" }).click();
  const input = section.getByLabel("What to detect");
  await input.fill("   ");
  await expect(section.getByRole("button", { name: "Apply" })).toBeDisabled();
  await input.fill(query);
  await section.getByRole("button", { name: "Apply" }).click();
  await expect(toastWith(page, "Detection Updated")).toBeVisible();
  await expect(page.getByTestId("box-query")).toHaveText(query);
}

/** Where a frame fraction is on screen, from the video's contain-fitted rectangle. */
async function screenPoint(page: Page, fx: number, fy: number) {
  return page.getByTestId("preview-video").evaluate(
    (video: HTMLVideoElement, [x, y]) => {
      const box = video.getBoundingClientRect();
      const scale = Math.min(box.width / video.videoWidth, box.height / video.videoHeight);
      const w = video.videoWidth * scale;
      const h = video.videoHeight * scale;
      return { x: box.left + (box.width - w) / 2 + x! * w, y: box.top + (box.height - h) / 2 + y! * h, scale, barX: (box.width - w) / 2, barY: (box.height - h) / 2 };
    },
    [fx, fy],
  );
}

/** RGBA of the detection canvas at a screen position. */
async function canvasPixel(page: Page, x: number, y: number): Promise<number[]> {
  return page.getByTestId("detection-canvas").evaluate(
    (canvas: HTMLCanvasElement, [sx, sy]) => {
      const r = canvas.getBoundingClientRect();
      const px = Math.round(((sx! - r.left) * canvas.width) / r.width);
      const py = Math.round(((sy! - r.top) * canvas.height) / r.height);
      return Array.from(canvas.getContext("2d")!.getImageData(px, py, 1, 1).data);
    },
    [x, y],
  );
}

async function expectBoxDrawnAtRedSquare(page: Page, thickness: number) {
  const left = await screenPoint(page, RED.x_min, (RED.y_min + RED.y_max) / 2);
  const right = await screenPoint(page, RED.x_max, (RED.y_min + RED.y_max) / 2);
  const top = await screenPoint(page, (RED.x_min + RED.x_max) / 2, RED.y_min);
  const centre = await screenPoint(page, (RED.x_min + RED.x_max) / 2, (RED.y_min + RED.y_max) / 2);
  // The stroke lies inside the box edges; sample half a stroke in from each edge.
  await expect.poll(() => canvasPixel(page, left.x + thickness / 2, left.y), { timeout: 45_000 }).toEqual([255, 0, 0, 255]);
  expect(await canvasPixel(page, right.x - thickness / 2, right.y)).toEqual([255, 0, 0, 255]);
  // Inside the box and well away from it: nothing drawn.
  expect((await canvasPixel(page, centre.x, centre.y))[3]).toBe(0);
  expect((await canvasPixel(page, left.x - 40, left.y))[3]).toBe(0);
  // The inline label sits above the box's top edge, in the box colour.
  expect(await canvasPixel(page, left.x + thickness, top.y - 4)).toEqual([255, 0, 0, 255]);
}

// Each test waits on several AI round trips; on a loaded machine those take a while.
test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await signUpInBrowser(page);
});

test("box detection draws boxes where the markers are, also when the picture is letterboxed the other way", async ({ page }) => {
  await addWebcam(page);
  await openTab(page, "Detections");
  await setBoxQuery(page, "red");
  const thickness = 10;
  await page.getByTestId("box-detection").getByLabel("Box thickness").fill(String(thickness));
  await toggle(page, "Enable Box Detection").click();
  const canvas = page.getByTestId("detection-canvas");
  await expect(canvas).toHaveAttribute("data-count", "1", { timeout: 45_000 });
  await expect(page.getByTestId("box-count")).toHaveText("1 found");

  // The canvas covers exactly the displayed picture, at the device pixel ratio. After a resize the
  // overlay follows on the next ResizeObserver callback, a frame or two after the video, so this retries
  // until it has settled (it fails if the canvas never covers the picture).
  const fit = async () => {
    let corner = await screenPoint(page, 0, 0);
    await expect(async () => {
      corner = await screenPoint(page, 0, 0);
      const far = await screenPoint(page, 1, 1);
      const rect = await canvas.evaluate((c: HTMLCanvasElement) => ({ ...c.getBoundingClientRect().toJSON(), w: c.width, h: c.height, dpr: devicePixelRatio }));
      expect(rect.left).toBeCloseTo(corner.x, 0);
      expect(rect.top).toBeCloseTo(corner.y, 0);
      expect(rect.right).toBeCloseTo(far.x, 0);
      expect(rect.bottom).toBeCloseTo(far.y, 0);
      expect(rect.w).toBe(Math.round(rect.width * rect.dpr));
    }).toPass({ timeout: 10_000 });
    return corner;
  };
  const tall = await fit();
  // The default layout: the 4:3 picture is narrower than its box's shape allows — bars above and below.
  expect((await screenPoint(page, 0, 0)).barY).toBeGreaterThan(5);
  await expectBoxDrawnAtRedSquare(page, thickness);

  // A wide, low window: the 4:3 picture now has bars left and right instead.
  await page.setViewportSize({ width: 1900, height: 760 });
  await expect.poll(async () => (await screenPoint(page, 0, 0)).barX).toBeGreaterThan(50);
  const wide = await fit();
  expect(wide.x).not.toBeCloseTo(tall.x, 0);
  await expectBoxDrawnAtRedSquare(page, thickness);

  // Turning detection off clears the drawing.
  await toggle(page, "Enable Box Detection").click();
  await expect(canvas).toHaveAttribute("data-count", "0");
  const left = await screenPoint(page, RED.x_min, 0.5);
  expect((await canvasPixel(page, left.x + thickness / 2, left.y))[3]).toBe(0);
});

test("point and box detection exclude each other; points are drawn at the marker centres", async ({ page }) => {
  await addWebcam(page);
  await openTab(page, "Detections");
  await toggle(page, "Enable Box Detection").click();
  const canvas = page.getByTestId("detection-canvas");
  // "person": the fake answers every marker (the blue half and the red square).
  await expect(canvas).toHaveAttribute("data-count", "2", { timeout: 45_000 });
  await expect(canvas).toHaveAttribute("data-kind", "box");

  await page.getByTestId("point-detection").getByLabel("Object to point at").fill("red");
  await toggle(page, "Enable Point Detection").click();
  await expect(toggle(page, "Enable Box Detection")).toHaveAttribute("aria-checked", "false");
  await expect(canvas).toHaveAttribute("data-kind", "point", { timeout: 45_000 });
  await expect(canvas).toHaveAttribute("data-count", "1");
  const centre = await screenPoint(page, 0.5, 0.5);
  expect(await canvasPixel(page, centre.x, centre.y)).toEqual([0, 255, 0, 255]);
  // Box detection back on: point detection goes off and its point is gone.
  await toggle(page, "Enable Box Detection").click();
  await expect(toggle(page, "Enable Point Detection")).toHaveAttribute("aria-checked", "false");
  await expect(canvas).toHaveAttribute("data-kind", "box", { timeout: 45_000 });
  expect((await canvasPixel(page, centre.x, centre.y))[1]).not.toBe(255);
});

test("point markers are gone at once when point detection is switched off mid-round, and do not come back", async ({ page }) => {
  await addWebcam(page);
  // Every answer takes 2 s, so the round started after the first answer is still on its way at the switch.
  await saveOwnKey(page, "slow-2000");
  await openTab(page, "Detections");
  const canvas = page.getByTestId("detection-canvas");
  // Boxes first: switching kinds while boxes were drawn once left a second point loop running that
  // nothing stopped, and its next answer drew the points again after they had been switched off.
  await setBoxQuery(page, "red");
  await toggle(page, "Enable Box Detection").click();
  await expect(canvas).toHaveAttribute("data-kind", "box", { timeout: 45_000 });
  const section = page.getByTestId("point-detection");
  await section.getByLabel("Object to point at").fill("red");
  await section.getByLabel("Point interval").selectOption("1000");
  await toggle(page, "Enable Point Detection").click();
  await expect(canvas).toHaveAttribute("data-kind", "point", { timeout: 45_000 });
  await expect(canvas).toHaveAttribute("data-count", "1");
  const centre = await screenPoint(page, 0.5, 0.5);
  expect(await canvasPixel(page, centre.x, centre.y)).toEqual([0, 255, 0, 255]);

  // Switch off while the next round is on its way.
  await page.waitForRequest((request) => request.url().endsWith("/api/moondream/point"));
  await toggle(page, "Enable Point Detection").click();
  const offAt = await page.evaluate(() => performance.now());
  await expect(canvas).toHaveAttribute("data-count", "0");
  expect((await canvasPixel(page, centre.x, centre.y))[3]).toBe(0);

  // On another tab, captions every 2 s serve as the clock: by their second answer (at least 6 s on), a
  // point loop still running would have answered and drawn several times over at its 1 s interval.
  await openTab(page, "AI");
  await aiTab(page).getByLabel("Analysis interval").selectOption("2");
  await aiTab(page).getByRole("switch", { name: "Enable AI analysis" }).click();
  const since = (path: string) =>
    page.evaluate(
      ([suffix, from]) =>
        performance
          .getEntriesByType("resource")
          .filter((e) => e.name.endsWith(suffix as string) && e.startTime > (from as number))
          .map((e) => (e as PerformanceResourceTiming).responseEnd),
      [path, offAt] as const,
    );
  await expect.poll(async () => (await since("/api/moondream/caption")).filter((end) => end > 0).length, { timeout: 45_000 }).toBeGreaterThanOrEqual(2);
  expect(await since("/api/moondream/point")).toEqual([]);
  await expect(canvas).toHaveAttribute("data-count", "0");
  expect((await canvasPixel(page, centre.x, centre.y))[3]).toBe(0);
});

test("auto-capture saves photos with the detection data, never closer than 5 s apart", async ({ page }) => {
  // When each auto-capture started, from the product's own mark: upload times on the server (createdAt)
  // stretch with load and would blur the 5 s gap.
  await page.addInitScript(`
    window.__autoCaptures = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.name === "framewise:auto-capture") window.__autoCaptures.push(entry.startTime);
    }).observe({ type: "mark" });
  `);
  await page.reload();
  await addWebcam(page);
  await openTab(page, "Automate");
  const status = page.getByTestId("auto-capture-status");
  await toggle(page, "Auto-capture").click();
  await expect(status).toContainText("Waiting for box detection");
  await expect(status).toContainText("Enable box detection");

  await openTab(page, "Detections");
  await setBoxQuery(page, "red");
  await page.getByTestId("box-detection").getByLabel("Detection interval").selectOption({ label: "1 s" });
  await toggle(page, "Enable Box Detection").click();
  await openTab(page, "Automate");
  await expect(status).toHaveText(/Monitoring for red/);

  const autoPhotos = async () =>
    (
      (await (await page.request.get("/api/photos?autoCapture=true&limit=50")).json()) as Array<{
        createdAt: string;
        autoCapture: boolean;
        detectionQuery: string;
        detectionBoxes: Array<typeof RED>;
      }>
    ).sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  await expect.poll(async () => (await autoPhotos()).length, { timeout: 45_000 }).toBeGreaterThanOrEqual(1);
  const [first] = await autoPhotos();
  expect(first).toMatchObject({ autoCapture: true, detectionQuery: "red" });
  expect(first!.detectionBoxes).toHaveLength(1);
  const box = first!.detectionBoxes[0]!;
  for (const key of ["x_min", "y_min", "x_max", "y_max"] as const) expect(Math.abs(box[key] - RED[key])).toBeLessThan(0.02);

  // Detection runs about every second; photos still come at least 5 s apart.
  await expect.poll(async () => (await autoPhotos()).length, { timeout: 45_000 }).toBeGreaterThanOrEqual(3);
  // The starts are read on both sides of the list, since a capture may start or finish saving in between.
  const startsBefore = ((await page.evaluate("window.__autoCaptures")) as number[]).length;
  const photos = await autoPhotos();
  const starts = (await page.evaluate("window.__autoCaptures")) as number[];
  // Every capture started was saved (the last may still be uploading), and none came sooner than 5 s.
  expect(photos.length).toBeLessThanOrEqual(starts.length);
  expect(photos.length).toBeGreaterThanOrEqual(startsBefore - 1);
  const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
  for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(4990);
  // Detection ran about every second meanwhile, so without the gap there would be far more photos.
  const span = starts.at(-1)! - starts[0]!;
  expect(starts.length).toBeLessThanOrEqual(Math.floor(span / 5000) + 1);
  // The library shows them like any other photo.
  await expect.poll(() => page.getByTestId("photo-thumb").count()).toBeGreaterThanOrEqual(photos.length);

  // Box detection off: auto-capture waits again.
  await openTab(page, "Detections");
  await toggle(page, "Enable Box Detection").click();
  await openTab(page, "Automate");
  await expect(status).toContainText("Waiting for box detection");
});

test("box detection settings persist across reloads after 'Save Settings for Next Time'", async ({ page }) => {
  await openTab(page, "Detections");
  const section = page.getByTestId("box-detection");
  await setBoxQuery(page, "coffee cup");
  await section.getByLabel("Box colour").fill("#00aaff");
  await section.getByLabel("Box thickness").fill("7");
  await section.getByLabel("Max boxes").fill("4");
  await section.getByLabel("Label size").selectOption("large");
  await section.getByLabel("Label mode").selectOption("popup");
  await section.getByLabel("Detection interval").selectOption({ label: "2 s" });
  await section.getByRole("button", { name: "Save Settings for Next Time" }).click();
  await expect(toastWith(page, "Settings Saved")).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("boxDetectionSettings") ?? "null") as Record<string, unknown>);
  expect(stored).toMatchObject({
    boxQuery: "coffee cup",
    boxColor: "#00aaff",
    boxThickness: 7,
    maxBoxes: 4,
    boxLabelSize: "large",
    boxLabelMode: "popup",
    boxDetectionInterval: 2000,
    boxConfidenceThreshold: 0.3,
  });

  // Assistant settings are kept as they change.
  await openTab(page, "Assistant");
  await page.getByLabel("Target look").selectOption("Custom");
  await page.getByLabel("Custom look").fill("warm documentary");
  await page.getByLabel("Camera type").fill("Sony FX3");

  await page.reload();
  await openTab(page, "Detections");
  await expect(page.getByTestId("box-query")).toHaveText("coffee cup");
  await expect(section.getByLabel("Box colour")).toHaveValue("#00aaff");
  await expect(section.getByLabel("Box thickness")).toHaveValue("7");
  await expect(section.getByLabel("Max boxes")).toHaveValue("4");
  await expect(section.getByLabel("Label size")).toHaveValue("large");
  await expect(section.getByLabel("Label mode")).toHaveValue("popup");
  await openTab(page, "Assistant");
  await expect(page.getByLabel("Target look")).toHaveValue("Custom");
  await expect(page.getByLabel("Custom look")).toHaveValue("warm documentary");
  await expect(page.getByLabel("Camera type")).toHaveValue("Sony FX3");
});

test("camera assistant: validation, snapshot, the accordion from the provider's advice, Refresh and dismiss", async ({ page }) => {
  await openTab(page, "Assistant");
  await page.getByRole("button", { name: "Capture Snapshot" }).click();
  await expect(toastWith(page, "No Video")).toContainText("Please start the video stream first");
  await page.getByRole("button", { name: "Get Recommendations" }).click();
  await expect(toastWith(page, "Analysis Failed")).toContainText("Please capture a snapshot first");

  await addWebcam(page);
  await page.getByRole("button", { name: "Capture Snapshot" }).click();
  await expect(toastWith(page, "Snapshot Captured")).toBeVisible();
  await expect(page.getByTestId("assistant-snapshot")).toBeVisible();
  await page.getByLabel("Target look").selectOption("Custom");
  await page.getByRole("button", { name: "Get Recommendations" }).click();
  await expect(toastWith(page, "Analysis Failed")).toContainText("Please specify a target look");
  await page.getByLabel("Target look").selectOption("Cinematic");

  await page.getByRole("button", { name: "Get Recommendations" }).click();
  const overlay = page.getByTestId("assistant-overlay");
  await expect(overlay).toBeVisible();
  await expect(overlay.getByTestId("advice-exposure")).toBeVisible({ timeout: 45_000 });
  await expect(toastWith(page, "Analysis Complete")).toBeVisible();
  // The fake's advice: objects keep their tip; strings are cut at the first sentence.
  await expect(overlay.getByTestId("advice-exposure")).toContainText("Exposure: Exposure looks balanced.");
  await expect(overlay.getByTestId("advice-whiteBalance")).toContainText("White Balance: Slightly cool; warm it a little.");
  await expect(overlay.locator("details")).toHaveCount(5);
  // Several sections open at once.
  await overlay.getByTestId("advice-exposure").locator("summary").click();
  await overlay.getByTestId("advice-lighting").locator("summary").click();
  await expect(overlay.getByTestId("advice-exposure")).toHaveAttribute("open", "");
  await expect(overlay.getByTestId("advice-lighting")).toHaveAttribute("open", "");
  await expect(overlay.getByTestId("advice-lighting")).toContainText("Shadows on the left are deep.");

  await overlay.getByRole("button", { name: "Refresh" }).click();
  await expect(overlay.getByTestId("advice-exposure")).toBeVisible({ timeout: 45_000 });
  await overlay.getByRole("button", { name: "Dismiss" }).click();
  await expect(overlay).toBeHidden();
});

test("camera assistant shows its progress while its call waits, then the advice", async ({ page }) => {
  await addWebcam(page);
  // An own key the fake answers 3.5 s late: as long as a call queued behind others on a busy key.
  await openTab(page, "AI");
  const ai = page.getByRole("complementary", { name: "Studio panel" }).getByTestId("ai-tab");
  await ai.getByLabel("Your Moondream API key").fill(`slow-3500-${Date.now()}`);
  await ai.getByRole("button", { name: "Save" }).click();
  await expect(ai.getByText("API key saved")).toBeVisible();
  await openTab(page, "Assistant");
  await page.getByRole("button", { name: "Capture Snapshot" }).click();
  await expect(page.getByTestId("assistant-snapshot")).toBeVisible();
  await page.getByRole("button", { name: "Get Recommendations" }).click();
  const overlay = page.getByTestId("assistant-overlay");
  await expect(overlay.getByRole("progressbar", { name: "Analyzing your shot" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Analyzing..." })).toBeDisabled();
  await expect(overlay.getByText(/Still working — the AI key may be busy with other calls… \d+ s/)).toBeVisible();
  await expect(overlay.getByTestId("advice-exposure")).toBeVisible({ timeout: 45_000 });
  await expect(overlay.getByRole("progressbar")).toBeHidden();
});

test("assistant interval mode snaps and analyses on its own every N seconds", async ({ page }) => {
  await addWebcam(page);
  await openTab(page, "Assistant");
  const every = page.getByLabel("Every (seconds)");
  await expect(every).toHaveValue("30");
  await every.fill("5");
  await expect(page.getByText("Enter a number of seconds from 10 to 300.")).toBeVisible();
  await every.fill("12");
  await every.blur();
  await expect(every).toHaveValue("12");
  await page.getByRole("switch", { name: "Analyze automatically" }).click();
  // No snapshot was taken and nothing was clicked: the interval takes one, then analyses it.
  await expect(page.getByTestId("assistant-snapshot")).toBeVisible({ timeout: 45_000 });
  await expect(page.getByTestId("assistant-overlay").getByTestId("advice-overall")).toContainText("Close to the target look.", { timeout: 45_000 });
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem("cameraAssistant"))) ?? "{}")).toMatchObject({ intervalSeconds: 12 });
  await page.getByRole("switch", { name: "Analyze automatically" }).click();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("the settings menu's auto-capture settings can switch auto-capture and box detection on", async ({ page }) => {
    await page.getByRole("button", { name: "Menu" }).click();
    const menu = page.getByRole("dialog", { name: "Settings" });
    const status = menu.getByTestId("auto-capture-status");
    await menu.getByRole("switch", { name: "Auto-capture" }).click();
    await expect(status).toContainText("Waiting for box detection");
    await menu.getByRole("button", { name: "Enable box detection" }).click();
    await expect(status).toHaveText(/Monitoring for person/);
  });
});
