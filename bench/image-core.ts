// Image core benchmarks: LUT grading of a 1920×1080 RGBA frame with the WASM SIMD core, the plain TS
// reference and a bare buffer copy (the physical floor), side by side; histogram and zebra per frame.
import { HISTOGRAM_FRAME_HEIGHT, HISTOGRAM_FRAME_WIDTH, ZEBRA_WORKING_WIDTH } from "#app/image/constants";
import { BUILTIN_LUTS } from "#app/image/builtin-luts";
import type { ImageCore } from "#app/image/core";
import { referenceApplyLut, referenceHistogram, referenceZebraMask } from "#app/image/reference";
import { lutFromTransform, makeLut, noiseFrame, photoLikeFrame } from "#app/image/test-data";
import type { ParsedLut } from "#app/image/types";
import { chromium } from "@playwright/test";
import { startImageCoreHarness } from "../tests/e2e/image-core-harness";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../tests/support/chromium";
import { loadImageCoreFromFile } from "../tests/support/image-core";
import { machine, machineLoad, ms, table, type Timing, timeCalls, verdict } from "./lib";

const WIDTH = 1920;
const HEIGHT = 1080;
const ZEBRA_HEIGHT = Math.round((ZEBRA_WORKING_WIDTH * HEIGHT) / WIDTH);

/** A 33³ grade (the default .cube size) with contrast, a warm tilt and saturation: every tetrahedron occurs. */
function gradeLut(): ParsedLut {
  const smooth = (v: number) => v * v * (3 - 2 * v);
  return makeLut({
    name: "bench grade",
    size: 33,
    data: lutFromTransform(33, (r, g, b) => {
      const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      return [smooth(y + (r - y) * 1.3) * 1.04, smooth(y + (g - y) * 1.3), smooth(y + (b - y) * 1.3) * 0.92];
    }),
  });
}

/** The kernel alone, from one WASM block to another: what a caller pays that keeps frames in WASM memory. */
function kernelOnly(core: ImageCore, frame: Uint8ClampedArray, lut: ParsedLut): () => void {
  const { exports } = core;
  const source = exports.alloc(frame.length) >>> 0;
  const target = exports.alloc(frame.length) >>> 0;
  const data = exports.alloc(lut.data.byteLength) >>> 0;
  const tablePointer = exports.alloc(exports.LUT3D_HEADER_BYTES.value + lut.size ** 3 * 16) >>> 0;
  new Uint8Array(exports.memory.buffer).set(new Uint8Array(frame.buffer), source);
  new Float32Array(exports.memory.buffer, data, lut.data.length).set(lut.data);
  const inRange = exports.prepareLut3d(data, lut.size, 0, 0, 0, 1, 1, 1, tablePointer, 0);
  return () => exports.applyLut3d(source, target, frame.length / 4, tablePointer, lut.size, 1, inRange ? 0 : 1);
}

const cell = (timing: Timing) => `${ms(timing.median)} (best ${ms(timing.best)})`;

function grading(core: ImageCore): string {
  const lut = gradeLut();
  const handle = core.loadLut(lut);
  const rows: Array<Array<string | number>> = [];
  const summary: string[] = [];
  for (const [label, makeFrame] of [
    ["photo-like", photoLikeFrame],
    ["uniform noise", noiseFrame],
  ] as const) {
    const source = makeFrame(WIDTH, HEIGHT, 1);
    const work = new Uint8ClampedArray(source.length);
    // Each graded call first refills `work` from `source` (one copy, subtracted below) so every
    // frame is fresh pixels, as from a camera.
    // Enough warm-up for V8 to move the WASM from its baseline compiler to the optimising one.
    const steady = { warmup: 10, minRuns: 20, minMs: 2000 };
    const copy = timeCalls(() => work.set(source), steady);
    const minus = (timing: Timing): Timing => ({ median: timing.median - copy.median, best: timing.best - copy.best });
    const wasm = minus(
      timeCalls(() => {
        work.set(source);
        core.applyLut(work, handle, 1);
      }, steady),
    );
    const wasmMix = minus(
      timeCalls(() => {
        work.set(source);
        core.applyLut(work, handle, 0.75);
      }, steady),
    );
    const kernel = timeCalls(kernelOnly(core, source, lut), steady);
    const reference = minus(
      timeCalls(
        () => {
          work.set(source);
          referenceApplyLut(work, lut, 1);
        },
        { warmup: 1, minRuns: 5, minMs: 0 },
      ),
    );
    const speedup = (timing: Timing) => `${(reference.median / timing.median).toFixed(1)}×`;
    rows.push(
      [`${label}: bare copy of the frame (\`Uint8Array.prototype.set\`, the floor)`, cell(copy), "1", "—"],
      [`${label}: WASM SIMD, intensity 1 (copy in, grade, copy out)`, cell(wasm), (wasm.median / copy.median).toFixed(0), speedup(wasm)],
      [`${label}: WASM SIMD, intensity 0.75`, cell(wasmMix), (wasmMix.median / copy.median).toFixed(0), speedup(wasmMix)],
      [`${label}: WASM kernel alone (frame already in WASM memory)`, cell(kernel), (kernel.median / copy.median).toFixed(0), speedup(kernel)],
      [`${label}: plain TS reference`, cell(reference), (reference.median / copy.median).toFixed(0), "1.0×"],
    );
    const ratio = reference.median / wasm.median;
    summary.push(
      `WASM grading of the ${label} frame: **${ms(wasm.median)}** median, ${ms(wasm.best)} best (target ≤ 12 ms: ${verdict(wasm.median <= 12)}); ` +
        `**${ratio.toFixed(1)}×** the TS reference (target ≥ 4×: ${verdict(ratio >= 4)}).`,
    );
  }
  core.releaseLut(handle);
  return [
    `### LUT grading, ${WIDTH}×${HEIGHT} RGBA, 33³ LUT, tetrahedral`,
    "",
    table(["implementation", "per frame, median (best)", "× copy", "speed-up over TS"], rows),
    "",
    ...summary.flatMap((line) => [line, ""]),
    "The photo-like frame has smooth gradients with ±3 levels of sensor noise; uniform noise is the worst case (random cells and tetrahedra).",
  ].join("\n");
}

function histogramAndZebra(core: ImageCore): string {
  const analysis = photoLikeFrame(HISTOGRAM_FRAME_WIDTH, HISTOGRAM_FRAME_HEIGHT, 2);
  const zebraFrame = photoLikeFrame(ZEBRA_WORKING_WIDTH, ZEBRA_HEIGHT, 3);
  const mask = new Uint8Array(ZEBRA_WORKING_WIDTH * ZEBRA_HEIGHT);
  const overlay = new Uint8ClampedArray(zebraFrame.length);
  const options = { minRuns: 200, minMs: 500 };
  const zebraOptions = { mode: "both", high: 230, low: 16 } as const;
  const histogramLuma = timeCalls(() => core.histogram(analysis, { mode: "luma" }), options);
  const histogramRgb = timeCalls(() => core.histogram(analysis, { mode: "rgb", log: true }), options);
  const zebra = timeCalls(() => core.zebraMask(zebraFrame, zebraOptions, mask), options);
  const zebraPaint = timeCalls(() => core.zebraOverlay(zebraFrame, { ...zebraOptions, width: ZEBRA_WORKING_WIDTH }, overlay), options);
  const referenceLuma = timeCalls(() => referenceHistogram(analysis, { mode: "luma" }), options);
  const referenceRgb = timeCalls(() => referenceHistogram(analysis, { mode: "rgb", log: true }), options);
  const referenceZebra = timeCalls(() => referenceZebraMask(zebraFrame, zebraOptions), options);
  return [
    `### Histogram (${HISTOGRAM_FRAME_WIDTH}×${HISTOGRAM_FRAME_HEIGHT}) and zebra (${ZEBRA_WORKING_WIDTH}×${ZEBRA_HEIGHT}) per frame`,
    "",
    table(
      ["operation", "WASM, median (best)", "TS reference, median", "target (WASM median)"],
      [
        ["histogram, luma", cell(histogramLuma), ms(referenceLuma.median), `≤ 0.2 ms ${verdict(histogramLuma.median <= 0.2)}`],
        ["histogram, RGB + log levels", cell(histogramRgb), ms(referenceRgb.median), `≤ 0.2 ms ${verdict(histogramRgb.median <= 0.2)}`],
        ["zebra mask, both sides", cell(zebra), ms(referenceZebra.median), `≤ 0.5 ms ${verdict(zebra.median <= 0.5)}`],
        ["zebra mask + striped RGBA overlay", cell(zebraPaint), "—", `≤ 0.5 ms ${verdict(zebraPaint.median <= 0.5)}`],
      ],
    ),
    "",
    "WASM figures include copying the pixels into WASM memory and the results out.",
  ].join("\n");
}

function parsing(core: ImageCore): string {
  const preset = BUILTIN_LUTS[0]!.lutData;
  const presetParse = timeCalls(() => core.parseCube(preset), { minRuns: 50, minMs: 500 });
  const rows = Array.from({ length: 64 ** 3 }, (_, i) => `${(i % 64) / 63} ${((i >> 6) % 64) / 63} ${(i >> 12) / 63}`);
  const big = `LUT_3D_SIZE 64\n${rows.join("\n")}\n`;
  const bigParse = timeCalls(() => core.parseCube(big), { minRuns: 5, minMs: 500 });
  return [
    "### .cube parsing (WASM, what `POST /api/luts` validation costs)",
    "",
    table(
      ["file", "text", "per parse, median (best)"],
      [
        ["built-in preset, 17³, six decimals", `${(preset.length / 1024).toFixed(0)} KB`, cell(presetParse)],
        ["64³ with full-precision values", `${(big.length / 2 ** 20).toFixed(1)} MB`, cell(bigParse)],
      ],
    ),
  ].join("\n");
}

/**
 * The preview in headless Chromium (WebGL2 through SwiftShader, i.e. on the CPU: a real GPU is far
 * faster, so the ratio to the fallback is the telling figure): 1920×1080 frames drawn with LUT +
 * zebra every animation frame and the histogram 10 times a second, against the WASM-worker fallback
 * grading the same frames, and a plain WebGL2 draw of the frame without any overlay.
 */
async function previewInBrowser(): Promise<string> {
  const harness = await startImageCoreHarness();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(harness.url);
    await page.waitForSelector("body[data-ready=true]");
    const cube = BUILTIN_LUTS.find((lut) => lut.name === "Cinematic")!.lutData;
    const seconds = Number(process.env.BENCH_SECONDS ?? 8);
    const gl = await page.evaluate(([c, ms]) => window.imageRendererHarness.webglFps(c, 1920, 1080, ms), [cube, seconds * 1000] as const);
    const plain = await page.evaluate(([c, ms]) => window.imageRendererHarness.webglFps(c, 1920, 1080, ms, false), [cube, seconds * 1000] as const);
    const cpu = await page.evaluate(([c, ms]) => window.imageRendererHarness.cpuFps(c, 1920, 1080, ms), [cube, seconds * 1000] as const);
    if (!gl) return "### Preview in headless Chromium\n\nWebGL2 was not available: no figure.";
    return [
      "### Preview in headless Chromium, 1920×1080, Cinematic 17³",
      "",
      table(
        ["path", "frames per second", "frames"],
        [
          ["WebGL2 (SwiftShader): LUT + zebra every frame, histogram at 10 fps", gl.fps.toFixed(1), `${gl.frames} (${gl.histograms} histograms)`],
          ["WebGL2 (SwiftShader): the frame alone, no LUT, zebra or histogram (upload + draw)", plain ? plain.fps.toFixed(1) : "—", plain?.frames ?? "—"],
          ["WASM worker fallback: LUT only (grab, transfer, grade, put)", cpu.fps.toFixed(1), cpu.frames],
        ],
      ),
      "",
      `WebGL2 with every overlay is **${(gl.fps / cpu.fps).toFixed(2)}×** the fallback here, and the overlays cost ${Math.round((1 - gl.fps / (plain?.fps ?? gl.fps)) * 100)} % of the plain draw's frame rate, with SwiftShader emulating the GPU on the same two cores; the preview asks for 30 fps.`,
    ].join("\n");
  } finally {
    await browser.close();
    await harness.close();
  }
}

export async function runImageCoreBenchmarks(): Promise<string> {
  const core = await loadImageCoreFromFile();
  const started = machineLoad();
  const sections = [grading(core), histogramAndZebra(core), parsing(core), await previewInBrowser()];
  return [`## Image core (WASM)`, "", `Machine ${started} at the start, ${machineLoad()} at the end.`, "", ...sections.flatMap((s) => [s, ""])].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Machine: ${machine()}\n`);
  console.log(await runImageCoreBenchmarks());
}
