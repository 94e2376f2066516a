// Visual overlays in the studio with the fake webcam (blue left half, yellow right half, red square
// in the middle): a LUT upload changes the preview's pixels, zebra marks the yellow (luma ≈ 237 ≥ 230),
// the WASM fallback draws the same without WebGL2, and the gallery grades and names its download.
import { readFileSync } from "node:fs";
import sharp from "sharp";
import type { Locator, Page } from "@playwright/test";
import { cubeText, roundTripLut } from "#app/image/test-data";
import { addWebcam, expect, signUpInBrowser, test, toastWith } from "./fixtures";

/** Inverts every channel: blue (0,0,255) becomes yellow (255,255,0) and yellow becomes blue. */
const INVERT_CUBE = `TITLE "Invert"\nLUT_3D_SIZE 2\n${[0, 1].flatMap((b) => [0, 1].flatMap((g) => [0, 1].map((r) => `${1 - r} ${1 - g} ${1 - b}`))).join("\n")}\n`;

/** Makes WebGL2 unavailable, as in a browser without it (a string: tsx-compiled functions break here). */
const NO_WEBGL2 = `(() => {
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
    if (type === "webgl2") return null;
    return original.call(this, type, ...rest);
  };
})();`;

/** Mean RGB of a region (fractions of the picture) as the screen shows it. */
async function meanColour(area: Locator, region: { x: number; y: number; w: number; h: number }): Promise<[number, number, number]> {
  const { data, info } = await sharp(await area.screenshot())
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let [r, g, b] = [0, 0, 0];
  let count = 0;
  for (let y = Math.round(region.y * info.height); y < Math.round((region.y + region.h) * info.height); y++) {
    for (let x = Math.round(region.x * info.width); x < Math.round((region.x + region.w) * info.width); x++) {
      const i = (y * info.width + x) * 3;
      r += data[i]!;
      g += data[i + 1]!;
      b += data[i + 2]!;
      count++;
    }
  }
  return [Math.round(r / count), Math.round(g / count), Math.round(b / count)];
}

const LEFT = { x: 0.05, y: 0.1, w: 0.3, h: 0.25 };
const RIGHT = { x: 0.65, y: 0.1, w: 0.3, h: 0.25 };

async function openSettings(page: Page) {
  await page.getByRole("tab", { name: "Settings" }).click();
  const panel = page.getByTestId("overlay-settings");
  await expect(panel.getByLabel("LUT", { exact: true }).locator("option", { hasText: "Cinematic" })).toBeAttached({ timeout: 15_000 });
  return panel;
}

// SwiftShader WebGL and the CPU path are slow on a busy machine: generous time, no fixed waits.
test.describe.configure({ timeout: 90_000 });

test.beforeEach(async ({ page }) => {
  await signUpInBrowser(page);
});

test("uploading a .cube and choosing it changes the preview's pixels (WebGL2); errors and delete", async ({ page }) => {
  await addWebcam(page);
  const panel = await openSettings(page);
  const area = page.getByTestId("picture-area");
  // Nothing on: the preview is the plain video, no overlay canvases at all.
  await expect(page.getByTestId("image-overlays")).toHaveCount(0);
  const before = await meanColour(area, LEFT);
  expect(before[2]).toBeGreaterThan(180);
  expect(before[0]).toBeLessThan(80);

  const file = panel.getByLabel("LUT file");
  await file.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(panel.getByRole("alert")).toHaveText("Please upload a .cube LUT file");
  await file.setInputFiles({ name: "broken.cube", mimeType: "text/plain", buffer: Buffer.from("LUT_3D_SIZE 2\n0 0 0\n") });
  await expect(panel.getByRole("alert")).toHaveText("Invalid LUT data: expected 24 values for 2x2x2 LUT, got 3");

  await file.setInputFiles({ name: "my-invert.cube", mimeType: "text/plain", buffer: Buffer.from(INVERT_CUBE) });
  await expect(toastWith(page, "LUT uploaded successfully")).toBeVisible();
  await expect(panel.getByRole("alert")).toHaveCount(0);
  await expect(panel.getByLabel("LUT colour grading")).toBeChecked();
  const overlays = page.getByTestId("image-overlays");
  await expect(overlays).toHaveAttribute("data-renderer", "webgl2");
  await expect(overlays).toHaveAttribute("data-lut", "Invert");
  // Blue inverted is yellow.
  await expect.poll(async () => (await meanColour(area, LEFT)).join(","), { timeout: 15_000 }).toMatch(/^(2[0-5]\d),(2[0-5]\d),([0-6]?\d)$/);

  // Half intensity mixes towards grey.
  await panel.getByRole("slider", { name: "Intensity" }).fill("0.5");
  await expect.poll(async () => Math.abs((await meanColour(area, LEFT))[0] - 128), { timeout: 15_000 }).toBeLessThan(30);

  // Disabled: back to the plain video.
  await panel.getByLabel("LUT colour grading").uncheck();
  await expect(overlays).toHaveCount(0);
  await panel.getByLabel("LUT colour grading").check();
  await expect(page.getByTestId("image-overlays")).toHaveAttribute("data-lut", "Invert");

  // Built-ins cannot be deleted; the upload can.
  await panel.getByLabel("LUT", { exact: true }).selectOption({ label: "Warm" });
  await expect(panel.getByRole("button", { name: "Delete LUT" })).toBeDisabled();
  await panel.getByLabel("LUT", { exact: true }).selectOption({ label: "Invert" });
  await panel.getByRole("button", { name: "Delete LUT" }).click();
  await expect(toastWith(page, "LUT deleted successfully")).toBeVisible();
  await expect(panel.getByLabel("LUT", { exact: true }).locator("option", { hasText: "Invert" })).toHaveCount(0);
  await expect(page.getByTestId("image-overlays")).toHaveCount(0);
  expect((await (await page.request.get("/api/luts")).json()) as unknown[]).toHaveLength(7);
});

test.describe("LUTs as grading tools write them", () => {
  // The session ends mid-way (signed out in another tab), so the browser logs the refused upload.
  test.use({ allowConsoleErrors: [/status of 401/] });

  test("Resolve's 65³, a 1D LUT and a shaper file grade the preview; a too-large cube and a server refusal say why", async ({ page, context }) => {
    await addWebcam(page);
    const panel = await openSettings(page);
    const area = page.getByTestId("picture-area");
    const file = panel.getByLabel("LUT file");
    const overlays = page.getByTestId("image-overlays");
    const uploaded = (name: string) => toastWith(page, "LUT uploaded successfully").filter({ hasText: name });

    // DaVinci Resolve's default export: 65³ with CRLF, ~7.5 MB.
    await file.setInputFiles({ name: "Resolve Look.cube", mimeType: "text/plain", buffer: Buffer.from(cubeText(roundTripLut("3d", 65), 6, "\r\n")) });
    await expect(uploaded("Round trip 3d 65")).toBeVisible({ timeout: 30_000 });
    await expect(overlays).toHaveAttribute("data-renderer", "webgl2");
    await expect(overlays).toHaveAttribute("data-lut", "Round trip 3d 65");

    // A 1D LUT that inverts every channel: the WebGL2 preview grades it (blue becomes yellow).
    await file.setInputFiles({ name: "invert.cube", mimeType: "text/plain", buffer: Buffer.from('TITLE "Invert 1D"\nLUT_1D_SIZE 2\n1 1 1\n0 0 0\n') });
    await expect(uploaded("Invert 1D")).toBeVisible();
    await expect(overlays).toHaveAttribute("data-lut", "Invert 1D");
    await expect.poll(async () => (await meanColour(area, LEFT)).join(","), { timeout: 15_000 }).toMatch(/^(2[0-5]\d),(2[0-5]\d),([0-6]?\d)$/);

    // A Resolve shaper file whose shaper inverts and whose cube inverts back: blue again, only if both apply.
    const shaperFile = `TITLE "Shaper Round Trip"\nLUT_1D_SIZE 2\nLUT_3D_SIZE 2\n1 1 1\n0 0 0\n${INVERT_CUBE.split("\n").slice(2).join("\n")}`;
    await file.setInputFiles({ name: "shaper.cube", mimeType: "text/plain", buffer: Buffer.from(shaperFile) });
    await expect(uploaded("Shaper Round Trip")).toBeVisible();
    await expect(overlays).toHaveAttribute("data-lut", "Shaper Round Trip");
    await expect.poll(async () => (await meanColour(area, LEFT)).join(","), { timeout: 15_000 }).toMatch(/^([0-6]?\d),([0-6]?\d),(1[89]\d|2[0-5]\d)$/);

    // Larger than supported: the real reason, under the field.
    await file.setInputFiles({ name: "huge.cube", mimeType: "text/plain", buffer: Buffer.from("LUT_3D_SIZE 257\n0 0 0\n") });
    await expect(panel.getByRole("alert")).toHaveText("LUT is 257³; the largest supported is 129³");

    // Signed out elsewhere: the server refuses, and its problem detail is what the toast says.
    await context.clearCookies();
    await file.setInputFiles({ name: "late.cube", mimeType: "text/plain", buffer: Buffer.from(INVERT_CUBE) });
    const refusal = toastWith(page, "Failed to upload LUT");
    await expect(refusal).toContainText("Sign in to continue");
    await expect(refusal).not.toContainText(/\d{3}:|"detail"/);
    await expect(panel.getByRole("alert")).toHaveText("Sign in to continue");
  });
});

/** Share of pixels in a region whose blue channel is high: zebra's white stripes over yellow. */
async function stripedShare(area: Locator, region: typeof RIGHT): Promise<number> {
  const { data, info } = await sharp(await area.screenshot())
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let striped = 0;
  let total = 0;
  for (let y = Math.round(region.y * info.height); y < Math.round((region.y + region.h) * info.height); y++) {
    for (let x = Math.round(region.x * info.width); x < Math.round((region.x + region.w) * info.width); x++) {
      total++;
      if (data[(y * info.width + x) * 3 + 2]! > 120) striped++;
    }
  }
  return striped / total;
}

for (const path of ["webgl2", "cpu"] as const) {
  test(`zebra marks the over-exposed yellow, the histogram shows, and a built-in LUT grades (${path} path)`, async ({ page }) => {
    const warnings: string[] = [];
    page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
    if (path === "cpu") await page.addInitScript(NO_WEBGL2);
    await page.reload();
    await addWebcam(page);
    const panel = await openSettings(page);
    const area = page.getByTestId("picture-area");

    await panel.getByLabel("Zebra", { exact: true }).check();
    const overlays = page.getByTestId("image-overlays");
    await expect(overlays).toHaveAttribute("data-renderer", path);
    await expect.poll(() => stripedShare(area, RIGHT), { timeout: 15_000 }).toBeGreaterThan(0.2);
    const left = await meanColour(area, LEFT); // blue (luma ≈ 18) gets no stripes
    expect(left[0]).toBeLessThan(80);
    expect(left[1]).toBeLessThan(80);
    // Opacity 0 hides the stripes.
    await panel.getByRole("slider", { name: "Zebra opacity" }).fill("0");
    await expect.poll(() => stripedShare(area, RIGHT), { timeout: 15_000 }).toBeLessThan(0.02);
    await panel.getByLabel("Zebra", { exact: true }).uncheck();

    await panel.getByLabel("Histogram", { exact: true }).check();
    await expect(page.getByTestId("overlay-histogram")).toBeVisible({ timeout: 15_000 });
    await panel.getByLabel("Histogram mode").selectOption("rgb");
    await panel.getByLabel("Histogram", { exact: true }).uncheck();

    await panel.getByLabel("LUT", { exact: true }).selectOption({ label: "Black & White" });
    await panel.getByLabel("LUT colour grading").check();
    await expect(page.getByTestId("image-overlays")).toHaveAttribute("data-lut", "Black & White");
    await expect
      .poll(
        async () => {
          const [r, g, b] = await meanColour(area, LEFT);
          return Math.max(r, g, b) - Math.min(r, g, b);
        },
        { timeout: 15_000 },
      )
      .toBeLessThan(12);
    if (path === "cpu") expect(warnings).toContain("WebGL not supported");
    else expect(warnings).not.toContain("WebGL not supported");

    // The settings persist across a reload.
    await page.reload();
    await expect(page.getByTestId("image-overlays")).toHaveAttribute("data-lut", "Black & White", { timeout: 15_000 });
  });
}

test("the gallery grades a photo with a LUT and downloads it named after the LUT; the choice resets per photo", async ({ page }) => {
  await addWebcam(page);
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await expect(page.getByTestId("photo-thumb")).toHaveCount(1);
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await expect(page.getByTestId("photo-thumb")).toHaveCount(2);
  await page.getByTestId("photo-thumb").first().click();
  const gallery = page.getByRole("dialog", { name: "Photo" });
  const picker = gallery.getByLabel("Colour grade");
  await expect(picker.locator("option", { hasText: "Black & White" })).toBeAttached({ timeout: 15_000 });
  await picker.selectOption({ label: "Black & White" });
  const download = gallery.getByRole("button", { name: "Download" });
  await expect(gallery.locator("img")).toHaveAttribute("src", /^blob:/, { timeout: 15_000 });
  await expect(download).toBeEnabled();
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^photo_single_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}_Black-White\.jpg$/);
  const bytes = readFileSync(await file.path());
  const image = sharp(bytes);
  expect((await image.metadata()).format).toBe("jpeg");
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (Math.round(info.height * 0.5) * info.width + Math.round(info.width * 0.1)) * 3;
  expect(Math.max(data[i]!, data[i + 1]!, data[i + 2]!) - Math.min(data[i]!, data[i + 1]!, data[i + 2]!)).toBeLessThan(12);

  await gallery.getByRole("button", { name: "Next photo" }).click();
  await expect(picker).toHaveValue("");
  await expect(gallery.locator("img")).not.toHaveAttribute("src", /^blob:/);
});
