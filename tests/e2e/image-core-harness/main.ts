// A bare page around the image-core worker client and the preview renderers, bundled by Vite like
// the app, for browser tests and the benchmark. Tests drive it through `window.imageCoreHarness`.
import { CubeParseError } from "#app/image/cube-parse-error";
import { createImageCoreClient } from "#app/image/image-core-client";
import type { HistogramOptions, ZebraOverlayOptions } from "#app/image/types";
import { rendererHarness } from "./renderer";

const client = createImageCoreClient();

// Sent before the worker has even started: with a top-level await before Comlink.expose() in the
// worker, this call would never settle.
const firstParse = client.parseCube("LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n", "First Call.cube");

const harness = {
  async firstParse() {
    const lut = await firstParse;
    return { name: lut.name, size: lut.size, values: lut.data.length };
  },
  async grade(cube: string, pixels: number[], intensity: number) {
    const handle = await client.loadLut(await client.parseCube(cube));
    const frame = new Uint8ClampedArray(pixels);
    const graded = await client.applyLut(frame, handle, intensity);
    await client.releaseLut(handle);
    return { graded: Array.from(graded), transferred: frame.byteLength === 0 };
  },
  async parseFailure(text: string) {
    try {
      await client.parseCube(text);
      return null;
    } catch (error) {
      return { isCubeParseError: error instanceof CubeParseError, message: (error as Error).message };
    }
  },
  async histogram(pixels: number[], options: HistogramOptions) {
    const { histogram } = await client.histogram(new Uint8ClampedArray(pixels), options);
    return { counts: Array.from(histogram.counts), levels: Array.from(histogram.levels) };
  },
  async zebraOverlay(pixels: number[], options: ZebraOverlayOptions) {
    return Array.from(await client.zebraOverlay(new Uint8ClampedArray(pixels), options));
  },
};

const renderers = rendererHarness(client);

declare global {
  interface Window {
    imageCoreHarness: typeof harness;
    imageRendererHarness: typeof renderers;
  }
}

window.imageCoreHarness = harness;
window.imageRendererHarness = renderers;
document.body.dataset.ready = "true";
