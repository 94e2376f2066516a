// Runs the preview's visual overlays over a <video> (or still <img>): the LUT view at up to 30 fps,
// zebra stripes and the histogram at 10 fps. WebGL2 draws graded frames and zebra in one shader;
// without it (or when the shaders fail) the WASM worker does the same work on the CPU. The pipeline
// owns its canvases; the page mounts them over the picture's rectangle, so anything else drawn
// there (AI boxes, captions) stays aligned with them.
import { CpuPreviewRenderer } from "./cpu-renderer";
import { drawHistogram, HistogramSampler } from "./histogram-view";
import type { ImageCoreClient } from "./image-core-client";
import { HISTOGRAM_FPS, LUT_PREVIEW_FPS, ZEBRA_FPS } from "./overlay-settings";
import type { HistogramMode, ParsedLut } from "./types";
import { type FrameSource, WebGLPreviewRenderer, type ZebraDraw } from "./webgl-renderer";

export type PreviewMedia = HTMLVideoElement | HTMLImageElement;

export interface PipelineState {
  /** The LUT to grade with, or null (then the picture is shown ungraded). */
  lut: ParsedLut | null;
  intensity: number;
  zebra: Omit<ZebraDraw, "phase"> | null;
  histogram: { mode: HistogramMode; log: boolean } | null;
}

export type RendererKind = "webgl2" | "cpu";

/** A frame interval with a little slack, so a 60 Hz display still hits 30 fps (every other vsync). */
const interval = (fps: number) => 1000 / fps - 4;

function mediaSize(media: PreviewMedia): { width: number; height: number } | null {
  if (media instanceof HTMLVideoElement) {
    return media.readyState >= 2 && media.videoWidth > 0 ? { width: media.videoWidth, height: media.videoHeight } : null;
  }
  return media.complete && media.naturalWidth > 0 ? { width: media.naturalWidth, height: media.naturalHeight } : null;
}

function makeCanvas(className: string, testId: string): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  canvas.className = className;
  canvas.dataset.testid = testId;
  canvas.style.visibility = "hidden";
  canvas.setAttribute("aria-hidden", "true");
  return canvas;
}

export class PreviewPipeline {
  readonly kind: RendererKind;
  /** The graded picture (WebGL2: with the zebra stripes in it). */
  readonly pictureCanvas: HTMLCanvasElement;
  /** CPU path only: the zebra overlay on its 320 px grid, stretched over the picture. */
  readonly zebraCanvas: HTMLCanvasElement;
  readonly histogramCanvas: HTMLCanvasElement;
  private readonly gl: WebGLPreviewRenderer | null;
  private readonly cpu: CpuPreviewRenderer | null;
  private readonly sampler: HistogramSampler;
  private state: PipelineState = { lut: null, intensity: 1, zebra: null, histogram: null };
  private lutReady = false;
  private frame = 0;
  private last = { picture: -Infinity, zebra: -Infinity, histogram: -Infinity };
  private busy = { picture: false, zebra: false, histogram: false };
  private phase = 0;
  private disposed = false;

  constructor(
    private readonly media: PreviewMedia,
    client: ImageCoreClient,
    /** Tests and benchmarks force the CPU path to compare both. */
    options: { forceCpu?: boolean } = {},
  ) {
    const pictureClass = "absolute inset-0 h-full w-full";
    const glCanvas = makeCanvas(pictureClass, "overlay-picture");
    this.zebraCanvas = makeCanvas("absolute inset-0 h-full w-full [image-rendering:pixelated]", "overlay-zebra");
    this.histogramCanvas = makeCanvas("absolute bottom-2 right-2 h-20 w-48 rounded bg-black/60", "overlay-histogram");
    this.histogramCanvas.width = 256;
    this.histogramCanvas.height = 100;
    this.gl = options.forceCpu ? null : WebGLPreviewRenderer.create(glCanvas);
    // After a shader failure that canvas holds a WebGL2 context and can never give a 2D one.
    this.pictureCanvas = this.gl ? glCanvas : makeCanvas(pictureClass, "overlay-picture");
    this.cpu = this.gl ? null : new CpuPreviewRenderer(client);
    this.kind = this.gl ? "webgl2" : "cpu";
    this.sampler = new HistogramSampler(client);
    this.frame = requestAnimationFrame(this.tick);
  }

  update(next: PipelineState): void {
    const lutChanged = next.lut !== this.state.lut;
    this.state = next;
    if (lutChanged) {
      this.lutReady = false;
      if (this.gl) {
        this.gl.setLut(next.lut);
        this.lutReady = next.lut !== null;
      } else {
        const lut = next.lut;
        void this.cpu!.setLut(lut).then(
          () => {
            if (this.state.lut === lut) this.lutReady = lut !== null;
          },
          (error: unknown) => console.warn("LUT could not be prepared", error),
        );
      }
    }
    // Redraw at once on the next animation frame rather than waiting for the cadence.
    this.last = { picture: -Infinity, zebra: -Infinity, histogram: -Infinity };
    this.syncVisibility();
  }

  private syncVisibility(): void {
    const { zebra, histogram } = this.state;
    const grading = this.state.lut !== null;
    const picture = this.gl ? grading || zebra !== null : grading && this.lutReady;
    this.pictureCanvas.style.visibility = picture && this.pictureCanvas.width > 1 ? "visible" : "hidden";
    this.zebraCanvas.style.visibility = !this.gl && zebra && this.zebraCanvas.width > 1 ? "visible" : "hidden";
    this.histogramCanvas.style.visibility = histogram ? "visible" : "hidden";
  }

  private readonly tick = (now: number): void => {
    if (this.disposed) return;
    this.frame = requestAnimationFrame(this.tick);
    const size = mediaSize(this.media);
    if (!size) return;
    const { lut, zebra, histogram } = this.state;
    if (now - this.last.zebra >= interval(ZEBRA_FPS)) {
      this.last.zebra = now;
      this.phase = (this.phase + 1) % 6;
      if (zebra && this.cpu && !this.busy.zebra)
        this.run("zebra", this.cpu.drawZebra(this.media as FrameSource, size.width, size.height, { ...zebra, phase: this.phase }, this.zebraCanvas));
    }
    if ((lut || (zebra && this.gl)) && now - this.last.picture >= interval(LUT_PREVIEW_FPS)) {
      this.last.picture = now;
      const target = this.drawSize(size);
      if (this.gl) {
        this.gl.draw(this.media as FrameSource, target.width, target.height, {
          intensity: this.lutReady ? this.state.intensity : 0,
          zebra: zebra ? { ...zebra, phase: this.phase } : null,
        });
        this.syncVisibility();
      } else if (this.lutReady && !this.busy.picture) {
        this.run("picture", this.cpu!.drawGraded(this.media as FrameSource, target.width, target.height, this.state.intensity, this.pictureCanvas));
      }
    }
    if (histogram && !this.busy.histogram && now - this.last.histogram >= interval(HISTOGRAM_FPS)) {
      this.last.histogram = now;
      this.busy.histogram = true;
      this.sampler
        .sample(this.media as FrameSource, histogram.mode, histogram.log)
        .then((result) => {
          if (!this.disposed && this.state.histogram) drawHistogram(this.histogramCanvas, result);
        })
        .catch((error: unknown) => console.warn("Histogram failed", error))
        .finally(() => (this.busy.histogram = false));
    }
  };

  private run(job: "picture" | "zebra", work: Promise<void>): void {
    this.busy[job] = true;
    work
      .then(() => this.syncVisibility())
      .catch((error: unknown) => console.warn(`Overlay ${job} failed`, error))
      .finally(() => (this.busy[job] = false));
  }

  /** The picture is drawn at its on-screen size in device pixels, never above the source's own. */
  private drawSize(size: { width: number; height: number }): { width: number; height: number } {
    const shown = this.pictureCanvas.parentElement?.getBoundingClientRect();
    const scale = shown && shown.width > 0 ? Math.min(1, (shown.width * (window.devicePixelRatio || 1)) / size.width) : 1;
    return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
  }

  dispose(): void {
    this.disposed = true;
    cancelAnimationFrame(this.frame);
    this.gl?.dispose();
    this.cpu?.dispose();
    for (const canvas of [this.pictureCanvas, this.zebraCanvas, this.histogramCanvas]) canvas.remove();
  }
}
