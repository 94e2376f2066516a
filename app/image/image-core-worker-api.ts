// What the image-core worker exposes through Comlink: the ImageCore API, asynchronous, with pixel
// buffers transferred in and back out (never copied between threads). Kept apart from the worker
// entry so Node tests can expose it over a MessageChannel.
import * as Comlink from "comlink";
import type { ImageCore, LutHandle } from "./core";
import { CubeParseError } from "./cube-parse-error";
import type { Histogram, HistogramOptions, ParsedLut, ZebraOptions, ZebraOverlayOptions } from "./types";

/** Parse errors travel as data: Comlink would drop CubeParseError's class and `detail`. */
export type ParseOutcome = { ok: true; lut: ParsedLut } | { ok: false; message: string; detail: string };

export interface ImageCoreWorkerApi {
  /** Resolves once the WASM is instantiated (calls made before that wait for it anyway). */
  ready(): Promise<void>;
  /** `length`: the whole file's, when `text` is only the head of one too long to parse (see ImageCore.parseCube). */
  parseCube(text: string, fileName?: string, length?: number): Promise<ParseOutcome>;
  loadLut(lut: ParsedLut): Promise<LutHandle>;
  releaseLut(handle: LutHandle): Promise<void>;
  /** Grades the transferred pixels in place and transfers them back. */
  applyLut(pixels: Uint8ClampedArray, lut: LutHandle, intensity: number): Promise<Uint8ClampedArray>;
  /** Returns the pixels (transferred back for reuse) with the histogram. */
  histogram(pixels: Uint8ClampedArray, options: HistogramOptions): Promise<{ pixels: Uint8ClampedArray; histogram: Histogram }>;
  zebraMask(pixels: Uint8ClampedArray, options: ZebraOptions): Promise<{ pixels: Uint8ClampedArray; mask: Uint8Array }>;
  /** Overwrites the transferred frame with its zebra overlay (same size, RGBA) and transfers it back. */
  zebraOverlay(pixels: Uint8ClampedArray, options: ZebraOverlayOptions): Promise<Uint8ClampedArray>;
}

/** `coreForParsing` may give big texts a core of their own (see imageCoreForParsing); by default the one core parses. */
export function createImageCoreWorkerApi(loadCore: () => Promise<ImageCore>, coreForParsing: (length: number) => Promise<ImageCore> = loadCore): ImageCoreWorkerApi {
  return {
    async ready() {
      await loadCore();
    },
    async parseCube(text, fileName, length) {
      const core = await coreForParsing(text.length);
      try {
        const lut = core.parseCube(text, fileName, length);
        return Comlink.transfer({ ok: true, lut }, lut.shaper ? [lut.data.buffer, lut.shaper.data.buffer] : [lut.data.buffer]);
      } catch (error) {
        if (error instanceof CubeParseError) return { ok: false, message: error.message, detail: error.detail };
        throw error;
      }
    },
    async loadLut(lut) {
      return (await loadCore()).loadLut(lut);
    },
    async releaseLut(handle) {
      (await loadCore()).releaseLut(handle);
    },
    async applyLut(pixels, lut, intensity) {
      (await loadCore()).applyLut(pixels, lut, intensity);
      return Comlink.transfer(pixels, [pixels.buffer]);
    },
    async histogram(pixels, options) {
      const histogram = (await loadCore()).histogram(pixels, options);
      return Comlink.transfer({ pixels, histogram }, [pixels.buffer, histogram.counts.buffer, histogram.levels.buffer]);
    },
    async zebraMask(pixels, options) {
      const mask = (await loadCore()).zebraMask(pixels, options);
      return Comlink.transfer({ pixels, mask }, [pixels.buffer, mask.buffer]);
    },
    async zebraOverlay(pixels, options) {
      (await loadCore()).zebraOverlay(pixels, options, pixels);
      return Comlink.transfer(pixels, [pixels.buffer]);
    },
  };
}
