// The histogram panel: the frame downscaled to the 192×108 analysis frame, binned by the WASM core
// in the worker (both render paths use it: 10 times a second it costs well under a millisecond),
// and drawn as bars — white for luma, additive red/green/blue for RGB.
import { HISTOGRAM_BINS, HISTOGRAM_FRAME_HEIGHT, HISTOGRAM_FRAME_WIDTH } from "./constants";
import { FrameGrabber } from "./cpu-renderer";
import type { ImageCoreClient } from "./image-core-client";
import type { Histogram, HistogramMode } from "./types";
import type { FrameSource } from "./webgl-renderer";

export class HistogramSampler {
  private readonly grabber = new FrameGrabber();

  constructor(private readonly client: ImageCoreClient) {}

  async sample(source: FrameSource, mode: HistogramMode, log: boolean): Promise<Histogram> {
    const frame = this.grabber.grab(source as CanvasImageSource, HISTOGRAM_FRAME_WIDTH, HISTOGRAM_FRAME_HEIGHT);
    const { histogram } = await this.client.histogram(frame.data, { mode, log });
    return histogram;
  }
}

const CHANNEL_COLOURS = ["rgb(255, 64, 64)", "rgb(64, 255, 64)", "rgb(80, 120, 255)"];

/** Draws the bars into `canvas` (its own pixel size; one bin per column when 256 wide). */
export function drawHistogram(canvas: HTMLCanvasElement, histogram: Histogram): void {
  const context = canvas.getContext("2d");
  if (!context) return;
  const { width, height } = canvas;
  context.clearRect(0, 0, width, height);
  const column = width / HISTOGRAM_BINS;
  const channels = histogram.mode === "rgb" ? 3 : 1;
  context.globalCompositeOperation = channels === 3 ? "lighter" : "source-over";
  for (let channel = 0; channel < channels; channel++) {
    context.fillStyle = channels === 3 ? CHANNEL_COLOURS[channel]! : "rgba(255, 255, 255, 0.85)";
    context.beginPath();
    for (let bin = 0; bin < HISTOGRAM_BINS; bin++) {
      const level = histogram.levels[channel * HISTOGRAM_BINS + bin] ?? 0;
      if (level <= 0) continue;
      const barHeight = Math.max(1, level * height);
      context.rect(bin * column, height - barHeight, Math.ceil(column), barHeight);
    }
    context.fill();
  }
  context.globalCompositeOperation = "source-over";
}
