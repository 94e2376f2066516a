// The studio workspace in Chromium with a fake webcam showing a known picture (blue left, yellow right,
// red square in the middle).
import sharp from "sharp";
import type { Page } from "@playwright/test";
import { expect, signUpInBrowser, test, toastWith } from "./fixtures";

async function addWebcam(page: Page) {
  await page.getByRole("button", { name: "Add Camera" }).first().click();
  await page.getByRole("menuitem", { name: "Add Camera" }).click();
  await expect(page.getByRole("dialog", { name: "Add Webcam" })).toContainText("PTZ");
  await page.getByRole("button", { name: "Select Webcam" }).click();
  const dialog = page.getByRole("dialog", { name: "Select Webcam" });
  await dialog.getByRole("listitem").first().getByRole("button").click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("camera-card")).toHaveCount(1);
  await expect.poll(() => page.getByTestId("preview-video").evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(640);
}

/**
 * For waits on several photos being saved: each upload of a full frame is real work on the server and took
 * up to 4 s on a busy 2-core machine, so a burst of five outlasted the default 7 s (it flaked).
 */
const SAVED = { timeout: 30_000 };

async function photoCount(page: Page): Promise<number> {
  const response = await page.request.get("/api/photos?limit=200");
  return ((await response.json()) as unknown[]).length;
}

test.beforeEach(async ({ page }) => {
  page.on("dialog", (dialog) => void dialog.accept());
  await signUpInBrowser(page);
});

test("adds a webcam: live preview, a thumbnail from the video, online status, and it comes back after a reload", async ({ page }) => {
  await expect(page.getByText("No cameras added yet")).toBeVisible();
  await addWebcam(page);
  const card = page.getByTestId("camera-card");
  await expect(card.getByTestId("status-dot")).toHaveAttribute("data-online", "true");
  await expect(card).toContainText("Webcam");
  await expect(card.getByTestId("camera-thumbnail")).toBeVisible();

  // The saved thumbnail is the fake camera's picture: blue on the left, yellow on the right.
  const cameras = (await (await page.request.get("/api/cameras")).json()) as Array<{ thumbnailUrl: string }>;
  const thumbnail = Buffer.from(await (await page.request.get(cameras[0]!.thumbnailUrl)).body());
  const { data, info } = await sharp(thumbnail).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3));
  const [lr, , lb] = at(Math.round(info.width * 0.1), Math.round(info.height * 0.5));
  const [rr, rg, rb] = at(Math.round(info.width * 0.9), Math.round(info.height * 0.5));
  expect(lb!).toBeGreaterThan(180);
  expect(lr!).toBeLessThan(80);
  expect(rr!).toBeGreaterThan(180);
  expect(rg!).toBeGreaterThan(180);
  expect(rb!).toBeLessThan(80);

  await page.reload();
  await expect(page.getByTestId("camera-card")).toHaveCount(1);
  await expect.poll(() => page.getByTestId("preview-video").evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(640);
});

test("single, burst of 5 and timelapse of 3 create exactly that many photos, shown in the strip", async ({ page }) => {
  await addWebcam(page);
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await expect(page.getByTestId("photo-thumb")).toHaveCount(1);

  await page.getByRole("radio", { name: "Burst" }).first().click();
  await expect(page.getByTestId("capture-hud")).toContainText("burst");
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await expect(page.getByTestId("photo-thumb")).toHaveCount(6, SAVED);

  await page.getByRole("radio", { name: "Timelapse" }).first().click();
  const bar = page.getByRole("region", { name: "Library and capture" });
  await bar.getByLabel("Interval").selectOption({ label: "0.5 s" });
  await bar.getByRole("spinbutton", { name: "Photos" }).fill("3");
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await expect(page.getByTestId("capture-progress")).toBeVisible();
  await expect(page.getByTestId("photo-thumb")).toHaveCount(9, SAVED);
  await expect(page.getByTestId("capture-progress")).toBeHidden();
  expect(await photoCount(page)).toBe(9);
  const modes = ((await (await page.request.get("/api/photos?limit=200")).json()) as Array<{ captureMode: string }>).map((p) => p.captureMode);
  expect(modes.filter((m) => m === "timelapse")).toHaveLength(3);
  expect(modes.filter((m) => m === "burst")).toHaveLength(5);
});

test("an endless timelapse stops with Stop", async ({ page }) => {
  await addWebcam(page);
  await page.getByRole("radio", { name: "Timelapse" }).first().click();
  const timelapseBar = page.getByRole("region", { name: "Library and capture" });
  await timelapseBar.getByLabel("Interval").selectOption({ label: "0.5 s" });
  await timelapseBar.getByLabel("Infinite").check();
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  const progress = page.getByTestId("capture-progress");
  await expect(progress).toContainText("of ∞");
  await expect.poll(async () => Number((await progress.textContent())?.split(" ")[0])).toBeGreaterThanOrEqual(2);
  await page.getByRole("button", { name: "Stop" }).click();
  // The progress stays until the photos already taken are saved.
  await expect(page.getByTestId("capture-progress")).toBeHidden(SAVED);
  const timelapsePhotos = async () =>
    ((await (await page.request.get("/api/photos?limit=200")).json()) as Array<{ captureMode: string }>).filter((p) => p.captureMode === "timelapse").length;
  const stoppedAt = await timelapsePhotos();
  expect(stoppedAt).toBeGreaterThanOrEqual(2);
  // A burst spanning more than one timelapse interval: no timelapse photo may arrive meanwhile.
  await page.getByRole("radio", { name: "Burst" }).first().click();
  const bar = page.getByRole("region", { name: "Library and capture" });
  await bar.getByRole("spinbutton", { name: "Photos" }).fill("3");
  await bar.getByLabel("Interval").selectOption({ label: "400 ms" });
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await expect(page.getByTestId("photo-thumb")).toHaveCount(stoppedAt + 3, SAVED);
  expect(await timelapsePhotos()).toBe(stoppedAt);
});

test("capture without a camera explains why", async ({ page }) => {
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await expect(page.getByRole("alertdialog")).toContainText("No camera selected");
});

test("gallery: arrows move, Escape closes, delete moves to the next photo and closes when none remain", async ({ page }) => {
  await addWebcam(page);
  await page.getByRole("radio", { name: "Burst" }).first().click();
  const bar = page.getByRole("region", { name: "Library and capture" });
  await bar.getByRole("spinbutton", { name: "Photos" }).fill("3");
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await expect(page.getByTestId("photo-thumb")).toHaveCount(3, SAVED);

  await page.getByTestId("photo-thumb").first().getByRole("button").first().click();
  const position = page.getByTestId("gallery-position");
  await expect(position).toHaveText("1 / 3");
  await page.keyboard.press("ArrowRight");
  await expect(position).toHaveText("2 / 3");
  await page.keyboard.press("ArrowLeft");
  await expect(position).toHaveText("1 / 3");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("gallery")).toBeHidden();

  await page.getByTestId("photo-thumb").nth(2).getByRole("button").first().click();
  await expect(position).toHaveText("3 / 3");
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(position).toHaveText("2 / 2"); // at the end: the previous photo
  await page.keyboard.press("ArrowLeft");
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(position).toHaveText("1 / 1"); // the next photo took its place
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("gallery")).toBeHidden();
  await expect(page.getByTestId("photo-thumb")).toHaveCount(0);
  expect(await photoCount(page)).toBe(0);
});

test("rename: Enter saves, Escape restores, blank is ignored", async ({ page }) => {
  await addWebcam(page);
  const card = page.getByTestId("camera-card");
  const original = await card.getByTestId("camera-name").textContent();
  await card.getByRole("button", { name: /^Rename/ }).click();
  await card.getByLabel("Camera name").fill("Stage left");
  await card.getByLabel("Camera name").press("Enter");
  await expect(card.getByTestId("camera-name")).toHaveText("Stage left");

  await card.getByRole("button", { name: /^Rename/ }).click();
  await card.getByLabel("Camera name").fill("Something else");
  await card.getByLabel("Camera name").press("Escape");
  await expect(card.getByTestId("camera-name")).toHaveText("Stage left");

  await card.getByRole("button", { name: /^Rename/ }).click();
  await card.getByLabel("Camera name").fill("   ");
  await card.getByLabel("Camera name").press("Enter");
  await expect(card.getByTestId("camera-name")).toHaveText("Stage left");
  await page.reload();
  await expect(page.getByTestId("camera-name")).toHaveText("Stage left");
  expect(original).not.toBe("Stage left");
});

test("adds a photo as a camera, named after the file, and captures from it", async ({ page }) => {
  const picture = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 10, g: 200, b: 10 } } })
    .jpeg()
    .toBuffer();
  await page.getByTestId("add-photo-input").setInputFiles({ name: "Garden view.jpg", mimeType: "image/jpeg", buffer: picture });
  await expect(toastWith(page, "Photo added")).toContainText("Garden view has been added as a static camera source.");
  const card = page.getByTestId("camera-card");
  await expect(card.getByTestId("camera-name")).toHaveText("Garden view");
  await expect(card).toContainText("Static Photo");
  await expect(page.getByTestId("preview-image")).toBeVisible();
  // Shown is not yet loaded: until the photo has its size, Capture rightly says the picture isn't ready.
  await expect.poll(() => page.getByTestId("preview-image").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await expect(page.getByTestId("photo-thumb")).toHaveCount(1);
  const [photo] = (await (await page.request.get("/api/photos")).json()) as Array<{ width: number; height: number; cameraName: string }>;
  expect(photo).toMatchObject({ width: 800, height: 600, cameraName: "Garden view" });
});

test("deleting the selected camera selects the first remaining one", async ({ page }) => {
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#888" } })
    .png()
    .toBuffer();
  await page.getByTestId("add-photo-input").setInputFiles({ name: "one.png", mimeType: "image/png", buffer: picture });
  await expect(page.getByTestId("camera-card")).toHaveCount(1);
  await page.getByTestId("add-photo-input").setInputFiles({ name: "two.png", mimeType: "image/png", buffer: picture });
  await expect(page.getByTestId("camera-card")).toHaveCount(2);
  await expect(page.getByTestId("camera-card").nth(1)).toHaveAttribute("data-selected", "true");
  await page.getByRole("button", { name: "Delete two" }).click();
  await expect(page.getByTestId("camera-card")).toHaveCount(1);
  await expect(page.getByTestId("camera-card").first()).toHaveAttribute("data-selected", "true");
  await page.getByRole("button", { name: "Delete one" }).click();
  await expect(page.getByText("No cameras added yet")).toBeVisible();
});

test("video settings: choosing a resolution saves it and reconnects the stream", async ({ page }) => {
  await addWebcam(page);
  const panel = page.getByRole("complementary", { name: "Studio panel" });
  await panel.getByRole("tab", { name: "Settings" }).click();
  await panel.getByLabel("Resolution").selectOption("1280x720");
  await expect(toastWith(page, "Video settings updated")).toContainText("Reconnecting camera with new settings...");
  await expect.poll(async () => ((await (await page.request.get("/api/cameras")).json()) as Array<{ videoWidth: number }>)[0]!.videoWidth).toBe(1280);
  // The fake device's file has a fixed size, so check the reconnected track asked for the new constraints.
  await expect
    .poll(() =>
      page.getByTestId("preview-video").evaluate((v: HTMLVideoElement) => JSON.stringify((v.srcObject as MediaStream | null)?.getVideoTracks()[0]?.getConstraints().width)),
    )
    .toMatch(/^(1280|\{"ideal":1280\})$/);
});

test("hotkeys: ? opens help, but not while typing in a field", async ({ page }) => {
  await page.getByRole("button", { name: "Feature Request" }).click();
  await page.getByLabel("Title").pressSequentially("F? nothing happens");
  await expect(page.getByLabel("Title")).toHaveValue("F? nothing happens");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeHidden();
  // Escape closes the dialog (a tooltip still showing on its button takes the first press).
  await expect(async () => {
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Feature Request" })).toBeHidden({ timeout: 500 });
  }).toPass({ timeout: 5000 });
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toContainText("Toggle fullscreen");
  await expect(help).toContainText("Zoom in / out");
});

test("feature request: submit is enabled only with both fields, then thanks", async ({ page }) => {
  await page.getByRole("button", { name: "Feature Request" }).click();
  const submit = page.getByRole("button", { name: "Submit Request" });
  await expect(submit).toBeDisabled();
  await page.getByLabel("Title").fill("Multi-camera grid");
  await expect(submit).toBeDisabled();
  await page.getByLabel("Description").fill("   ");
  await expect(submit).toBeDisabled();
  await page.getByLabel("Description").fill("Show four cameras at once.");
  await submit.click();
  await expect(toastWith(page, "Request Submitted")).toContainText("Thank you for your feature suggestion!");
});

test("rule of thirds toggles a grid over the picture", async ({ page }) => {
  await addWebcam(page);
  await expect(page.getByTestId("thirds-grid")).toHaveCount(0);
  await page.getByRole("button", { name: "Rule of thirds" }).click();
  await expect(page.getByTestId("thirds-grid")).toBeVisible();
});

test("a webcam whose device is gone shows offline with the reason, and the rest of the studio works", async ({ page }) => {
  const origin = new URL(page.url()).origin;
  await page.request.post("/api/cameras", { data: { name: "Unplugged cam", model: "", status: "online", deviceId: "no-such-device-id" }, headers: { origin } });
  await page.reload();
  const card = page.getByTestId("camera-card");
  await expect(card.getByTestId("status-dot")).toHaveAttribute("data-online", "false");
  await expect(card).toContainText("Offline");
  await expect(page.getByTestId("preview")).toContainText(/not connected|No camera found/);
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await expect(page.getByRole("alertdialog")).toContainText("No video stream available. Please add a camera first.");
});

test("a click on the picture reports a -1…1 position for click-to-move", async ({ page }) => {
  await addWebcam(page);
  const area = page.getByTestId("picture-area");
  const box = (await area.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.75, box.y + box.height * 0.25);
  await expect(area).toHaveAttribute("data-last-click", "0.50,-0.50");
});
