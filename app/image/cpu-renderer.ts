// The preview's fallback path for browsers without WebGL2 (or when the shaders fail): frames are
// grabbed into a scratch canvas, graded / zebra-painted by the WASM core in the image-core worker
// (pixels transferred, never copied between threads) and put back on visible canvases. The picture
// matches the WebGL2 path; only the frame rate is lower.
import { zebraWorkingSize } from "./options";
import type { ImageCoreClient } from "./image-core-client";
import type { LutHandle } from "./core";
import type { ParsedLut } from "./types";
import type { FrameSource, ZebraDraw } from "./webgl-renderer";

type Drawable = CanvasImageSource;

/** A reusable offscreen 2D canvas that hands out the pixels of a source scaled to a size. */
export class FrameGrabber {
  private readonly canvas: HTMLCanvasElement | OffscreenCanvas;
  private readonly context: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

  constructor() {
    this.canvas = typeof OffscreenCanvas !== "undefined" ? new OffscreenCanvas(1, 1) : document.createElement("canvas");
    const context = this.canvas.getContext("2d", { willReadFrequently: true });
    if (!context) throw new Error("2D canvas unavailable");
    this.context = context as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
  }

  grab(source: Drawable, width: number, height: number): ImageData {
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    this.context.drawImage(source, 0, 0, width, height);
    return this.context.getImageData(0, 0, width, height);
  }
}

/** Pixels that came back from the worker: transferred, so always a plain (never shared) ArrayBuffer. */
function imageData(pixels: Uint8ClampedArray, width: number, height: number): ImageData {
  return new ImageData(pixels as Uint8ClampedArray<ArrayBuffer>, width, height);
}

function context2d(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const context = canvas.getContext("2d");
  if (!context) throw new Error("2D canvas unavailable");
  return context;
}

export class CpuPreviewRenderer {
  readonly kind = "cpu";
  private readonly grabber = new FrameGrabber();
  private readonly zebraGrabber = new FrameGrabber();
  private handle: LutHandle | null = null;
  private lutVersion = 0;

  constructor(private readonly client: ImageCoreClient) {}

  /** Prepares the LUT inside the worker once (later frames pass only its handle). */
  async setLut(lut: ParsedLut | null): Promise<void> {
    const version = ++this.lutVersion;
    const previous = this.handle;
    this.handle = null;
    if (previous !== null) void this.client.releaseLut(previous).catch(() => {});
    if (!lut) return;
    const handle = await this.client.loadLut(lut);
    if (version === this.lutVersion) this.handle = handle;
    else void this.client.releaseLut(handle).catch(() => {});
  }

  get hasLut(): boolean {
    return this.handle !== null;
  }

  /**
   * Grades one frame at `width`×`height` (the display size, at most the source's own) and paints it
   * on `target`. Resolves once painted; the caller skips frames while one is in flight.
   */
  async drawGraded(source: FrameSource, width: number, height: number, intensity: number, target: HTMLCanvasElement): Promise<void> {
    if (this.handle === null) return;
    const frame = this.grabber.grab(source as Drawable, width, height);
    const graded = await this.client.applyLut(frame.data, this.handle, intensity);
    if (target.width !== width || target.height !== height) {
      target.width = width;
      target.height = height;
    }
    context2d(target).putImageData(imageData(graded, width, height), 0, 0);
  }

  /** The zebra overlay on the 320 px working grid, painted on `target` (stretched over the picture). */
  async drawZebra(source: FrameSource, sourceWidth: number, sourceHeight: number, zebra: ZebraDraw, target: HTMLCanvasElement): Promise<void> {
    const { width, height } = zebraWorkingSize(sourceWidth, sourceHeight);
    const frame = this.zebraGrabber.grab(source as Drawable, width, height);
    const overlay = await this.client.zebraOverlay(frame.data, { mode: zebra.mode, high: zebra.high, low: zebra.low, opacity: zebra.opacity, phase: zebra.phase, width });
    if (target.width !== width || target.height !== height) {
      target.width = width;
      target.height = height;
    }
    context2d(target).putImageData(imageData(overlay, width, height), 0, 0);
  }

  dispose(): void {
    this.lutVersion++;
    if (this.handle !== null) void this.client.releaseLut(this.handle).catch(() => {});
    this.handle = null;
  }
}
