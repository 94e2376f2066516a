// The image-core worker in headless Chromium: Vite-bundled like the app, WASM streamed from its own
// asset, Comlink answering from the first message, and results byte-identical to the core in Node.
import { BUILTIN_LUTS } from "#app/image/builtin-luts";
import type { ImageCore } from "#app/image/core";
import { noiseFrame, photoLikeFrame } from "#app/image/test-data";
import { loadImageCoreFromFile } from "../support/image-core";
import { expect, test } from "./fixtures";
import { type Harness, startImageCoreHarness } from "./image-core-harness";

let harness: Harness;
let core: ImageCore;

test.describe.configure({ mode: "default" }); // one harness build, tests in order in one worker
test.beforeAll(async () => {
  [harness, core] = await Promise.all([startImageCoreHarness(), loadImageCoreFromFile()]);
});
test.afterAll(async () => {
  await harness.close();
});

test.beforeEach(async ({ page }) => {
  const wasmResponse = page.waitForResponse((response) => response.url().endsWith(".wasm"));
  await page.goto(harness.url);
  await expect(page.locator("body")).toHaveAttribute("data-ready", "true");
  // Fetched as its own asset with the type instantiateStreaming needs (not inlined as base64).
  expect((await wasmResponse).headers()["content-type"]).toBe("application/wasm");
});

test("a call made before the worker started still resolves", async ({ page }) => {
  expect(await page.evaluate(() => window.imageCoreHarness.firstParse())).toEqual({ name: "First Call", size: 2, values: 24 });
});

test("grades in the worker exactly as the core does in Node, transferring the frame", async ({ page }) => {
  const cinematic = BUILTIN_LUTS.find((lut) => lut.name === "Cinematic")!.lutData;
  const frame = photoLikeFrame(96, 54, 3);
  const expected = frame.slice();
  core.applyLut(expected, core.parseCube(cinematic), 0.8);
  const result = await page.evaluate(([cube, pixels]) => window.imageCoreHarness.grade(cube, pixels, 0.8), [cinematic, Array.from(frame)] as const);
  expect(result.transferred).toBe(true);
  expect(result.graded).toEqual(Array.from(expected));
});

test("parse errors arrive as CubeParseError with the spec's message", async ({ page }) => {
  const failure = await page.evaluate(() => window.imageCoreHarness.parseFailure("LUT_3D_SIZE 2\n0 0 0\n"));
  expect(failure).toEqual({ isCubeParseError: true, message: "Invalid LUT data: expected 24 values for 2x2x2 LUT, got 3" });
});

test("histogram and zebra overlay match the core in Node", async ({ page }) => {
  const frame = noiseFrame(48, 27, 5);
  const histogram = core.histogram(frame, { mode: "rgb", log: true });
  const overlayOptions = { mode: "both" as const, high: 200, low: 30, width: 48, phase: 2, opacity: 0.75 };
  const overlay = core.zebraOverlay(frame, overlayOptions);
  const [remoteHistogram, remoteOverlay] = await page.evaluate(
    ([pixels, options]) => Promise.all([window.imageCoreHarness.histogram(pixels, { mode: "rgb", log: true }), window.imageCoreHarness.zebraOverlay(pixels, options)]),
    [Array.from(frame), overlayOptions] as const,
  );
  expect(remoteHistogram.counts).toEqual(Array.from(histogram.counts));
  expect(remoteHistogram.levels).toEqual(Array.from(histogram.levels));
  expect(remoteOverlay).toEqual(Array.from(overlay));
});
