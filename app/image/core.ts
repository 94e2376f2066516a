// The image core's typed API over the WASM module: .cube parsing, LUT grading, histogram and zebra.
// Framework-free and synchronous once created; the same class runs on the server (upload
// validation), in tests, in benchmarks and inside the browser's image-core worker.
import { MAX_CUBE_TEXT_LENGTH } from "./constants";
import { parseCubeInto, type ParseBlocks } from "./cube-parse";
import { bytesOf, checkIntensity, checkLut, checkPixels, zebraPaint, zebraThresholds } from "./options";
import type { Histogram, HistogramOptions, LutShaper, ParsedLut, PixelBuffer, ZebraOptions, ZebraOverlayOptions } from "./types";
import { type WasmBlock, WasmHeap } from "./wasm-heap";
import { type ImageCoreExports, type ImageCoreSource, instantiateImageCore } from "./wasm-module";

/** A LUT prepared inside the core (see ImageCore.loadLut). */
export type LutHandle = number;

interface PreparedTable {
  table: WasmBlock;
  /** No entry is too large for the kernel's rounding trick, so grading needs no clamp (see prepareLut3d). */
  inRange: boolean;
}

interface LoadedLut extends PreparedTable {
  kind: "3d" | "1d";
  size: number;
  domainMin: readonly number[];
  domainMax: readonly number[];
  hasShaper: boolean;
  /** The table blended with the identity for the last intensity used (see mixLut3d). */
  mixed?: PreparedTable & { intensity: number };
}

/** LUTs passed to applyLut as objects stay prepared for reuse; the oldest are released past this. */
const IMPLICIT_LUT_CACHE = 4;
/** Rows copied in for loadLut above this are not kept allocated (a big cube's need not stay reserved). */
const KEEP_ROWS_BYTES = 1 << 20;
/** applyLut grades in strips of this many bytes (16384 pixels; measured best of 4096..65536 px). */
const STRIP_BYTES = 16384 * 4;

export class ImageCore {
  private readonly heap: WasmHeap;
  private readonly frame: WasmBlock;
  private readonly side: WasmBlock; // a second frame-sized block: zebra masks and overlays
  private readonly parse: ParseBlocks;
  private readonly stats: WasmBlock; // histogram counts and levels
  private readonly luts = new Map<LutHandle, LoadedLut>();
  private readonly handlesByLut = new WeakMap<ParsedLut, LutHandle>();
  private readonly implicitHandles: LutHandle[] = [];
  private nextHandle = 1;

  constructor(readonly exports: ImageCoreExports) {
    this.heap = new WasmHeap(exports);
    this.frame = this.heap.block();
    this.side = this.heap.block();
    this.stats = this.heap.block();
    this.parse = { text: this.heap.block(), rows: this.heap.block(), result: this.heap.block() };
  }

  /**
   * Parses .cube text. The name comes from TITLE, else the file name without its extension, else
   * "Untitled LUT". Throws CubeParseError with the spec's message (and a `detail` for logs), or
   * with the real reason when a size is beyond the supported ones. Pass the file's `length` when
   * `text` is only the head of a file too long to read whole (CUBE_HEAD_LENGTH characters suffice).
   */
  parseCube(text: string, fileName?: string, length?: number): ParsedLut {
    return parseCubeInto(this.heap, this.parse, text, fileName, MAX_CUBE_TEXT_LENGTH, length);
  }

  /** Prepares a LUT's tables inside the core once; pass the handle to applyLut for every frame. */
  loadLut(lut: ParsedLut): LutHandle {
    checkLut(lut);
    const { exports, heap } = this;
    const is3d = lut.kind === "3d";
    const entries = is3d ? lut.size ** 3 : lut.size;
    // One scratch reservation for the rows, and behind them a shaper's rows and its outputs (8-byte aligned).
    const shaperRows = lut.shaper ? lut.shaper.size : 0;
    const scratch = this.parse.rows.reserve((entries + shaperRows) * 12 + (shaperRows ? exports.SHAPER_INPUTS_BYTES.value + 8 : 0));
    heap.f32(scratch, entries * 3).set(lut.data);
    const table = heap.block();
    const tableBytes = is3d ? exports.LUT3D_HEADER_BYTES.value + entries * 16 : exports.LUT1D_TABLE_BYTES.value;
    const tablePointer = table.reserve(tableBytes);
    const [minR, minG, minB] = lut.domainMin;
    const [maxR, maxG, maxB] = lut.domainMax;
    let inRange = false;
    if (is3d) {
      const inputs = lut.shaper ? this.prepareShaper(lut.shaper, scratch + entries * 12) : 0;
      inRange = exports.prepareLut3d(scratch, lut.size, minR, minG, minB, maxR, maxG, maxB, tablePointer, inputs) === 1;
    } else {
      exports.prepareLut1d(scratch, lut.size, minR, minG, minB, maxR, maxG, maxB, tablePointer);
    }
    if (this.parse.rows.bytes > KEEP_ROWS_BYTES) this.parse.rows.release();
    const handle = this.nextHandle++;
    this.luts.set(handle, { kind: lut.kind, size: lut.size, table, inRange, domainMin: [...lut.domainMin], domainMax: [...lut.domainMax], hasShaper: !!lut.shaper });
    return handle;
  }

  releaseLut(handle: LutHandle): void {
    const loaded = this.luts.get(handle);
    loaded?.table.release();
    loaded?.mixed?.table.release();
    this.luts.delete(handle);
  }

  /**
   * Grades RGBA8 pixels in place (alpha untouched): tetrahedral interpolation for 3D LUTs, linear
   * for 1D, mixed with the original by `intensity` (0..1). A ParsedLut is prepared on first use
   * and cached for as long as the object lives.
   */
  applyLut(pixels: PixelBuffer, lut: LutHandle | ParsedLut, intensity = 1): void {
    const count = checkPixels(pixels);
    const weight = checkIntensity(intensity);
    const loaded = this.luts.get(typeof lut === "number" ? lut : this.handleFor(lut));
    if (!loaded) throw new RangeError("unknown LUT handle (released?)");
    if (weight === 0 || count === 0) return;
    const mixed = loaded.kind === "3d" && weight < 1 ? this.mixedTable(loaded, weight) : undefined;
    const bytes = bytesOf(pixels);
    const strip = this.frame.reserve(Math.min(bytes.length, STRIP_BYTES));
    const memory = this.heap.u8; // after every allocation: growing the memory detaches old views
    // Strip by strip (copy in, grade, copy out) rather than the whole frame at once: a strip stays
    // in the cache between the three steps, and the LUT's table is not evicted by megabytes of
    // pixels streaming through (about 1 ms less per 1080p frame).
    for (let start = 0; start < bytes.length; start += STRIP_BYTES) {
      const end = Math.min(start + STRIP_BYTES, bytes.length);
      const stripPixels = (end - start) / 4;
      memory.set(bytes.subarray(start, end), strip);
      if (loaded.kind === "1d") this.exports.applyLut1d(strip, strip, stripPixels, loaded.table.pointer, weight);
      else if (mixed) this.exports.applyLut3d(strip, strip, stripPixels, mixed.table.pointer, loaded.size, 1, mixed.inRange ? 0 : 1);
      else this.exports.applyLut3d(strip, strip, stripPixels, loaded.table.pointer, loaded.size, weight, loaded.inRange ? 0 : 1);
      bytes.set(memory.subarray(strip, strip + end - start), start);
    }
  }

  /** 256 luma bins or 3 × 256 RGB bins of RGBA8 pixels (the 192×108 analysis frame), with bar heights. */
  histogram(pixels: PixelBuffer, options: HistogramOptions): Histogram {
    const count = checkPixels(pixels);
    const rgb = options.mode === "rgb";
    if (!rgb && options.mode !== "luma") throw new RangeError("histogram mode must be luma or rgb");
    const bins = rgb ? 768 : 256;
    const frame = this.frame.reserve(pixels.length);
    const stats = this.stats.reserve(768 * 8);
    const levelsPointer = stats + 768 * 4;
    this.heap.u8.set(bytesOf(pixels), frame);
    this.exports.histogram(frame, count, rgb ? 1 : 0, stats);
    this.exports.histogramLevels(stats, bins, options.log ? 1 : 0, levelsPointer);
    const counts = this.heap.u32(stats, bins).slice();
    let max = 0;
    for (const value of counts) if (value > max) max = value;
    return { mode: options.mode, counts, levels: this.heap.f32(levelsPointer, bins).slice(), max };
  }

  /** One byte per pixel: bit 1 over the high threshold, bit 2 under the low one (ZEBRA_MASK_*). */
  zebraMask(pixels: PixelBuffer, options: ZebraOptions, out?: Uint8Array): Uint8Array {
    const count = checkPixels(pixels);
    const { high, low } = zebraThresholds(options);
    const target = out ?? new Uint8Array(count);
    if (target.length !== count) throw new RangeError("zebra mask output must have one byte per pixel");
    const frame = this.frame.reserve(pixels.length);
    const mask = this.side.reserve(count);
    this.heap.u8.set(bytesOf(pixels), frame);
    this.exports.zebraMask(frame, count, high, low, mask);
    target.set(this.heap.u8.subarray(mask, mask + count));
    return target;
  }

  /** The zebra overlay as RGBA8 (transparent where exposure is fine), to draw over the preview. */
  zebraOverlay(pixels: PixelBuffer, options: ZebraOverlayOptions, out?: Uint8ClampedArray): Uint8ClampedArray {
    const count = checkPixels(pixels);
    const { high, low } = zebraThresholds(options);
    const paint = zebraPaint(options, count);
    const target = out ?? new Uint8ClampedArray(pixels.length);
    if (target.length !== pixels.length) throw new RangeError("zebra overlay output must match the frame size");
    // Pixels in, mask into the side block, overlay back over the frame block: no third buffer.
    const frame = this.frame.reserve(pixels.length);
    const mask = this.side.reserve(count);
    this.heap.u8.set(bytesOf(pixels), frame);
    this.exports.zebraMask(frame, count, high, low, mask);
    this.exports.zebraOverlay(mask, paint.width, paint.height, paint.period, paint.phase, paint.highColour, paint.lowColour, frame);
    bytesOf(target).set(this.heap.u8.subarray(frame, frame + pixels.length));
    return target;
  }

  /** Copies the shaper's rows to `at` and computes its output for every input byte behind them; returns where those are. */
  private prepareShaper(shaper: LutShaper, at: number): number {
    const inputs = (at + shaper.size * 12 + 7) & ~7;
    this.heap.f32(at, shaper.size * 3).set(shaper.data);
    const [minR, minG, minB] = shaper.domainMin;
    const [maxR, maxG, maxB] = shaper.domainMax;
    this.exports.prepareShaper(at, shaper.size, minR, minG, minB, maxR, maxG, maxB, inputs);
    return inputs;
  }

  /**
   * A prepared table with the intensity folded in, when the domain covers 0..1 (so every 8-bit input
   * is inside it and the blend is exact) and there is no shaper (which breaks that); rebuilt only
   * when the intensity changes.
   */
  private mixedTable(loaded: LoadedLut, intensity: number): PreparedTable | undefined {
    const { domainMin, domainMax } = loaded;
    if (loaded.hasShaper) return undefined;
    if (!domainMin.every((value) => value <= 0) || !domainMax.every((value) => value >= 1)) return undefined;
    if (loaded.mixed?.intensity === intensity) return loaded.mixed;
    const table = loaded.mixed?.table ?? this.heap.block();
    const pointer = table.reserve(loaded.table.bytes);
    const [minR = 0, minG = 0, minB = 0] = domainMin;
    const [maxR = 1, maxG = 1, maxB = 1] = domainMax;
    const inRange = this.exports.mixLut3d(loaded.table.pointer, loaded.size, intensity, minR, minG, minB, maxR, maxG, maxB, pointer) === 1;
    loaded.mixed = { intensity, table, inRange };
    return loaded.mixed;
  }

  private handleFor(lut: ParsedLut): LutHandle {
    let handle = this.handlesByLut.get(lut);
    if (handle === undefined || !this.luts.has(handle)) {
      handle = this.loadLut(lut);
      this.handlesByLut.set(lut, handle);
      this.implicitHandles.push(handle);
      if (this.implicitHandles.length > IMPLICIT_LUT_CACHE) this.releaseLut(this.implicitHandles.shift()!);
    }
    return handle;
  }
}

export async function createImageCore(source: ImageCoreSource): Promise<ImageCore> {
  return new ImageCore(await instantiateImageCore(source));
}
