// The preview renderers in headless Chromium (WebGL2 through SwiftShader): the shader grades a test
// frame like the WASM core in Node within 2/255 (and paints the same zebra), including cubes up to the
// size cap, 1D LUTs and Resolve shaper files; and with WebGL2 switched off the renderer reports it,
// logs 'WebGL not supported', and the WASM-worker fallback paints the same.
import type { Page } from "@playwright/test";
import { BUILTIN_LUTS } from "#app/image/builtin-luts";
import type { ImageCore } from "#app/image/core";
import { LUT_3D_MAX_SIZE } from "#app/image/constants";
import { referenceApplyLut } from "#app/image/reference";
import { cubeText, noiseFrame, photoLikeFrame, roundTripLut, type RoundTripCase } from "#app/image/test-data";
import { loadImageCoreFromFile } from "../support/image-core";
import { expect, test } from "./fixtures";
import { type Harness, startImageCoreHarness } from "./image-core-harness";

let harness: Harness;
let core: ImageCore;

const NO_WEBGL2 = `(() => {
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
    if (type === "webgl2") return null;
    return original.call(this, type, ...rest);
  };
})();`;

/** A LUT with a domain other than 0..1, to check the shader's input mapping too. */
const WIDE_DOMAIN_CUBE = `TITLE "Wide"\nLUT_3D_SIZE 3\nDOMAIN_MIN -0.1 0 0\nDOMAIN_MAX 1.2 1 0.9\n${Array.from({ length: 27 }, (_, i) => {
  const [r, g, b] = [i % 3, Math.floor(i / 3) % 3, Math.floor(i / 9)].map((v) => v / 2);
  return `${(g! * 0.8 + 0.1).toFixed(4)} ${(b! * 0.9).toFixed(4)} ${(r! * r!).toFixed(4)}`;
}).join("\n")}\n`;

test.describe.configure({ mode: "default", timeout: 90_000 });
test.beforeAll(async () => {
  [harness, core] = await Promise.all([startImageCoreHarness(), loadImageCoreFromFile()]);
});
test.afterAll(async () => {
  await harness.close();
});

async function open(page: Page) {
  await page.goto(harness.url);
  await expect(page.locator("body")).toHaveAttribute("data-ready", "true");
}

function maxDifference(actual: number[], expected: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    if (i % 4 === 3) continue; // alpha: the preview is opaque
    worst = Math.max(worst, Math.abs(actual[i]! - expected[i]!));
  }
  return worst;
}

const opaque = (frame: Uint8ClampedArray) => {
  for (let i = 3; i < frame.length; i += 4) frame[i] = 255;
  return frame;
};

const cases = [
  {
    name: "Cinematic 17³ at intensity 1, photo-like frame",
    cube: BUILTIN_LUTS.find((l) => l.name === "Cinematic")!.lutData,
    width: 96,
    height: 54,
    frame: () => photoLikeFrame(96, 54, 3),
    intensity: 1,
  },
  {
    name: "Vintage 17³ at intensity 0.6, noise",
    cube: BUILTIN_LUTS.find((l) => l.name === "Vintage")!.lutData,
    width: 64,
    height: 48,
    frame: () => opaque(noiseFrame(64, 48, 9)),
    intensity: 0.6,
  },
  { name: "a 3³ LUT with a wide domain, noise", cube: WIDE_DOMAIN_CUBE, width: 64, height: 48, frame: () => opaque(noiseFrame(64, 48, 4)), intensity: 1 },
];

for (const c of cases) {
  test(`WebGL2 shader matches the WASM core within 2/255: ${c.name}`, async ({ page }) => {
    await open(page);
    const frame = c.frame();
    const expected = frame.slice();
    core.applyLut(expected, core.parseCube(c.cube), c.intensity);
    const actual = await page.evaluate(([cube, pixels, width, height, intensity]) => window.imageRendererHarness.webgl(cube, pixels, width, height, intensity, null), [
      c.cube,
      Array.from(frame),
      c.width,
      c.height,
      c.intensity,
    ] as const);
    expect(actual, "WebGL2 is available in headless Chromium").not.toBeNull();
    expect(maxDifference(actual!, expected)).toBeLessThanOrEqual(2);
    // And it really grades: the graded frame differs from the input.
    expect(maxDifference(actual!, frame)).toBeGreaterThan(10);
  });
}

// The round trips of app/image/lut-round-trip.test.ts through the shader: the same .cube text written
// in the page, parsed by the worker and uploaded, against the TS reference in Node.
const roundTrips: Array<[string, RoundTripCase, number]> = [
  ...[...new Set([2, 33, 65, 129, LUT_3D_MAX_SIZE])].map((size): [string, RoundTripCase, number] => [`a ${size}³ cube`, "3d", size]),
  ["a 4096-point 1D LUT with a wide domain", "1d", 4096],
  ["a Resolve shaper file (1024-point shaper, then 33³)", "shaper", 1024],
];

for (const [name, kind, size] of roundTrips) {
  test(`WebGL2 grades LUTs as tools write them like the TS reference within 2/255: ${name}`, async ({ page }, testInfo) => {
    // A 129³ file is 58 MB of text, written and parsed in the page, then 2 M texels through SwiftShader.
    test.setTimeout(size > 64 && kind === "3d" ? 300_000 : 90_000);
    await open(page);
    const frame = opaque(noiseFrame(64, 48, size));
    const expected = frame.slice();
    referenceApplyLut(expected, core.parseCube(cubeText(roundTripLut(kind, size))), 0.85);
    const result = await page.evaluate(([k, n, pixels]) => window.imageRendererHarness.webglRoundTrip(k, n, pixels, 64, 48, 0.85), [kind, size, Array.from(frame)] as const);
    expect(result, "WebGL2 is available in headless Chromium").not.toBeNull();
    expect(result!.glError).toBe(0);
    expect(maxDifference(result!.pixels, expected)).toBeLessThanOrEqual(2);
    expect(maxDifference(result!.pixels, frame)).toBeGreaterThan(10);
    testInfo.annotations.push({
      type: "timing",
      description: `${name}: ${JSON.stringify(result!.ms)} ms, ${result!.textLength} characters, MAX_3D_TEXTURE_SIZE ${result!.max3dTextureSize}`,
    });
  });
}

test("WebGL2 zebra stripes match the WASM overlay composited over the graded frame", async ({ page }) => {
  await open(page);
  const cube = BUILTIN_LUTS.find((l) => l.name === "Warm")!.lutData;
  // 320 px wide: the zebra working grid is the frame itself, so both paths judge the same pixels.
  const frame = photoLikeFrame(320, 180, 7);
  const zebra = { mode: "both" as const, high: 200, low: 70, opacity: 0.75, phase: 4 };
  const graded = frame.slice();
  core.applyLut(graded, core.parseCube(cube), 1);
  const overlay = core.zebraOverlay(frame, { ...zebra, width: 320 });
  const expected = graded.slice();
  let striped = 0;
  for (let i = 0; i < expected.length; i += 4) {
    const alpha = overlay[i + 3]! / 255;
    if (alpha > 0) striped++;
    for (let c = 0; c < 3; c++) expected[i + c] = Math.round(graded[i + c]! * (1 - alpha) + overlay[i + c]! * alpha);
  }
  expect(striped).toBeGreaterThan(1000); // the frame has both over- and under-exposed parts
  const actual = await page.evaluate(([cube, pixels, options]) => window.imageRendererHarness.webgl(cube, pixels, 320, 180, 1, options), [cube, Array.from(frame), zebra] as const);
  expect(maxDifference(actual!, expected)).toBeLessThanOrEqual(2);
});

test("without WebGL2: 'WebGL not supported' is logged and the WASM fallback paints what the shader paints", async ({ page }) => {
  const cube = BUILTIN_LUTS.find((l) => l.name === "Moody")!.lutData;
  const frame = photoLikeFrame(96, 54, 11);
  const args = [cube, Array.from(frame)] as const;
  await open(page);
  const shader = await page.evaluate(([c, pixels]) => window.imageRendererHarness.webgl(c, pixels, 96, 54, 0.8, null), args);

  const warnings: string[] = [];
  page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
  await page.addInitScript(NO_WEBGL2);
  await open(page);
  expect(await page.evaluate(() => window.imageRendererHarness.webgl2Available())).toBe(false);
  expect(await page.evaluate(([c, pixels]) => window.imageRendererHarness.webgl(c, pixels, 96, 54, 0.8, null), args)).toBeNull();
  expect(warnings).toContain("WebGL not supported");
  const fallback = await page.evaluate(([c, pixels]) => window.imageRendererHarness.cpu(c, pixels, 96, 54, 0.8), args);
  const expected = frame.slice();
  core.applyLut(expected, core.parseCube(cube), 0.8);
  expect(maxDifference(fallback, expected)).toBe(0);
  expect(maxDifference(fallback, shader!)).toBeLessThanOrEqual(2);
});
