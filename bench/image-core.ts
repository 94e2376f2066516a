// Image core benchmarks: LUT grading of a 1920×1080 RGBA frame with the WASM SIMD core, the plain TS
// reference and a bare buffer copy (the physical floor), side by side; histogram and zebra per frame.
import { HISTOGRAM_FRAME_HEIGHT, HISTOGRAM_FRAME_WIDTH, ZEBRA_WORKING_WIDTH } from "../app/image/constants";
import { BUILTIN_LUTS } from "../app/image/builtin-luts";
import type { ImageCore } from "../app/image/core";
import { referenceApplyLut, referenceHistogram, referenceZebraMask } from "../app/image/reference";
import { lutFromTransform, makeLut, noiseFrame, photoLikeFrame } from "../app/image/test-data";
import { loadImageCoreFromFile } from "../tests/support/image-core";
import { machine, medianTime, ms, table, verdict } from "./lib";

const WIDTH = 1920;
const HEIGHT = 1080;
const ZEBRA_HEIGHT = Math.round((ZEBRA_WORKING_WIDTH * HEIGHT) / WIDTH);

/** A 33³ grade (the default .cube size) with contrast, a warm tilt and saturation: every tetrahedron case occurs. */
function gradeLut() {
  return makeLut({
    name: "bench grade",
    size: 33,
    data: lutFromTransform(33, (r, g, b) => {
      const s = (v: number) => v * v * (3 - 2 * v);
      const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      return [s(y + (r - y) * 1.3) * 1.04, s(y + (g - y) * 1.3), s(y + (b - y) * 1.3) * 0.92];
    }),
  });
}

/** The grading kernel alone on a frame already in WASM memory (what a zero-copy caller would pay). */
function kernelOnly(core: ImageCore, frame: Uint8ClampedArray, handleTable: () => number, size: number): () => void {
  const pointer = core.exports.alloc(frame.length) >>> 0;
  new Uint8Array(core.exports.memory.buffer).set(frame, pointer);
  const table = handleTable();
  return () => core.exports.applyLut3d(pointer, pointer, frame.length / 4, table, size, 1);
}

function grading(core: ImageCore): string {
  const lut = gradeLut();
  const handle = core.loadLut(lut);
  // The table pointer of a prepared LUT: prepare a second copy by hand for the kernel-only figure.
  const tableFor = () => {
    const exports = core.exports;
    const data = exports.alloc(lut.data.byteLength) >>> 0;
    new Float32Array(exports.memory.buffer, data, lut.data.length).set(lut.data);
    const table = exports.alloc(exports.LUT3D_HEADER_BYTES.value + 33 ** 3 * 16) >>> 0;
    exports.prepareLut3d(data, 33, 0, 0, 0, 1, 1, 1, table);
    return table;
  };
  const rows: Array<Array<string | number>> = [];
  let wasmPhoto = 0;
  let referencePhoto = 0;
  for (const [label, makeFrame] of [["photo-like", photoLikeFrame], ["uniform noise", noiseFrame]] as const) {
    const source = makeFrame(WIDTH, HEIGHT, 1);
    const work = new Uint8ClampedArray(source.length);
    const copy = medianTime(() => work.set(source));
    const wasm = medianTime(() => {
      work.set(source);
      core.applyLut(work, handle, 1);
    }) - copy; // the refill of `work` is not part of grading
    const wasmMix = medianTime(() => {
      work.set(source);
      core.applyLut(work, handle, 0.75);
    }) - copy;
    const kernel = medianTime(kernelOnly(core, source, tableFor, 33));
    const reference = medianTime(() => {
      work.set(source);
      referenceApplyLut(work, lut, 1);
    }, { warmup: 1, minRuns: 3, minMs: 0 }) - copy;
    if (label === "photo-like") {
      wasmPhoto = wasm;
      referencePhoto = reference;
    }
    rows.push(
      [`${label}: bare copy of the frame (\`Uint8Array.prototype.set\`, the floor)`, ms(copy), "1.00", "—"],
      [`${label}: WASM SIMD, intensity 1 (copy in + grade + copy out)`, ms(wasm), (wasm / copy).toFixed(2), `${(reference / wasm).toFixed(1)}×`],
      [`${label}: WASM SIMD, intensity 0.75`, ms(wasmMix), (wasmMix / copy).toFixed(2), `${(reference / wasmMix).toFixed(1)}×`],
      [`${label}: WASM kernel alone (frame already in WASM memory)`, ms(kernel), (kernel / copy).toFixed(2), `${(reference / kernel).toFixed(1)}×`],
      [`${label}: plain TS reference`, ms(reference), (reference / copy).toFixed(2), "1.0×"],
    );
  }
  core.releaseLut(handle);
  const speedup = referencePhoto / wasmPhoto;
  return [
    `### LUT grading, ${WIDTH}×${HEIGHT} RGBA, 33³ LUT, tetrahedral`,
    "",
    table(["implementation", "per frame", "× copy", "speed-up over TS"], rows),
    "",
    `WASM grading of the photo-like frame: **${ms(wasmPhoto)}** (target ≤ 12 ms: ${verdict(wasmPhoto <= 12)}), ` +
      `**${speedup.toFixed(1)}×** the TS reference (target ≥ 4×: ${verdict(speedup >= 4)}).`,
  ].join("\n");
}

function histogramAndZebra(core: ImageCore): string {
  const analysis = photoLikeFrame(HISTOGRAM_FRAME_WIDTH, HISTOGRAM_FRAME_HEIGHT, 2);
  const zebraFrame = photoLikeFrame(ZEBRA_WORKING_WIDTH, ZEBRA_HEIGHT, 3);
  const mask = new Uint8Array(ZEBRA_WORKING_WIDTH * ZEBRA_HEIGHT);
  const overlay = new Uint8ClampedArray(zebraFrame.length);
  const options = { minRuns: 200, minMs: 500 };
  const histogramLuma = medianTime(() => core.histogram(analysis, { mode: "luma" }), options);
  const histogramRgb = medianTime(() => core.histogram(analysis, { mode: "rgb", log: true }), options);
  const zebra = medianTime(() => core.zebraMask(zebraFrame, { mode: "both", high: 230, low: 16 }, mask), options);
  const zebraPaint = medianTime(() => core.zebraOverlay(zebraFrame, { mode: "both", high: 230, low: 16, width: ZEBRA_WORKING_WIDTH }, overlay), options);
  const referenceHistogramRgb = medianTime(() => referenceHistogram(analysis, { mode: "rgb", log: true }), options);
  const referenceZebra = medianTime(() => referenceZebraMask(zebraFrame, { mode: "both", high: 230, low: 16 }), options);
  return [
    `### Histogram (${HISTOGRAM_FRAME_WIDTH}×${HISTOGRAM_FRAME_HEIGHT}) and zebra (${ZEBRA_WORKING_WIDTH}×${ZEBRA_HEIGHT}) per frame`,
    "",
    table(
      ["operation", "WASM", "TS reference", "target"],
      [
        ["histogram, luma", ms(histogramLuma), "—", `≤ 0.2 ms ${verdict(histogramLuma <= 0.2)}`],
        ["histogram, RGB + log levels", ms(histogramRgb), ms(referenceHistogramRgb), `≤ 0.2 ms ${verdict(histogramRgb <= 0.2)}`],
        ["zebra mask, both sides", ms(zebra), ms(referenceZebra), `≤ 0.5 ms ${verdict(zebra <= 0.5)}`],
        ["zebra mask + striped RGBA overlay", ms(zebraPaint), "—", `≤ 0.5 ms ${verdict(zebraPaint <= 0.5)}`],
      ],
    ),
    "",
    "All WASM figures include copying the pixels into WASM memory and the results out.",
  ].join("\n");
}

function parsing(core: ImageCore): string {
  const text = BUILTIN_LUTS[0]!.lutData;
  const parse = medianTime(() => core.parseCube(text), { minRuns: 50, minMs: 500 });
  const big = Array.from({ length: 64 ** 3 }, (_, i) => `${(i % 64) / 63} ${((i >> 6) % 64) / 63} ${(i >> 12) / 63}`).join("\n");
  const parseBig = medianTime(() => core.parseCube(`LUT_3D_SIZE 64\n${big}`), { minRuns: 5, minMs: 500 });
  return [
    "### .cube parsing (WASM)",
    "",
    table(
      ["file", "size", "per parse"],
      [
        ["built-in preset, 17³", `${(text.length / 1024).toFixed(0)} KB`, ms(parse)],
        ["64³ with full-precision values", `${(big.length / 2 ** 20).toFixed(1)} MB`, ms(parseBig)],
      ],
    ),
  ].join("\n");
}

export async function runImageCoreBenchmarks(): Promise<string> {
  const core = await loadImageCoreFromFile();
  return [`## Image core (WASM)`, "", grading(core), "", histogramAndZebra(core), "", parsing(core)].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Machine: ${machine()}\n`);
  console.log(await runImageCoreBenchmarks());
}
