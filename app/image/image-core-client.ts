// The page's handle on the image-core worker: typed async calls, pixel buffers transferred (the
// caller's buffer is detached until the graded one comes back), parse errors as CubeParseError.
import * as Comlink from "comlink";
import type { LutHandle } from "./core";
import { CubeParseError } from "./cube-parse-error";
import type { ImageCoreWorkerApi } from "./image-core-worker-api";
import type { Histogram, HistogramOptions, ParsedLut, ZebraOptions, ZebraOverlayOptions } from "./types";

export interface ImageCoreClient {
  ready(): Promise<void>;
  /** Throws CubeParseError with the spec's message (see ImageCore.parseCube for `length`). */
  parseCube(text: string, fileName?: string, length?: number): Promise<ParsedLut>;
  loadLut(lut: ParsedLut): Promise<LutHandle>;
  releaseLut(handle: LutHandle): Promise<void>;
  /** Transfers `pixels` to the worker; resolves with the graded frame (a new view on the same memory). */
  applyLut(pixels: Uint8ClampedArray, lut: LutHandle, intensity?: number): Promise<Uint8ClampedArray>;
  histogram(pixels: Uint8ClampedArray, options: HistogramOptions): Promise<{ pixels: Uint8ClampedArray; histogram: Histogram }>;
  zebraMask(pixels: Uint8ClampedArray, options: ZebraOptions): Promise<{ pixels: Uint8ClampedArray; mask: Uint8Array }>;
  /** Transfers the frame; resolves with the same memory holding its zebra overlay. */
  zebraOverlay(pixels: Uint8ClampedArray, options: ZebraOverlayOptions): Promise<Uint8ClampedArray>;
  /** Stops the worker; pending calls never settle. */
  dispose(): void;
}

function startWorker(): Worker {
  return new Worker(new URL("./image-core.worker.ts", import.meta.url), { type: "module", name: "image-core" });
}

/** `endpoint` defaults to a new image-core worker; tests pass one end of a MessageChannel. */
export function createImageCoreClient(endpoint: Comlink.Endpoint = startWorker()): ImageCoreClient {
  const remote = Comlink.wrap<ImageCoreWorkerApi>(endpoint);
  return {
    ready: () => remote.ready(),
    async parseCube(text, fileName, length) {
      const outcome = await remote.parseCube(text, fileName, length);
      if (!outcome.ok) throw new CubeParseError(outcome.message, outcome.detail);
      return outcome.lut;
    },
    loadLut: (lut) => remote.loadLut(lut),
    releaseLut: (handle) => remote.releaseLut(handle),
    applyLut: (pixels, lut, intensity = 1) => remote.applyLut(Comlink.transfer(pixels, [pixels.buffer]), lut, intensity),
    histogram: (pixels, options) => remote.histogram(Comlink.transfer(pixels, [pixels.buffer]), options),
    zebraMask: (pixels, options) => remote.zebraMask(Comlink.transfer(pixels, [pixels.buffer]), options),
    zebraOverlay: (pixels, options) => remote.zebraOverlay(Comlink.transfer(pixels, [pixels.buffer]), options),
    dispose() {
      remote[Comlink.releaseProxy]();
      if ("terminate" in endpoint && typeof endpoint.terminate === "function") endpoint.terminate();
    },
  };
}
