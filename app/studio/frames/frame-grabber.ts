// One canvas path for every frame the studio takes: downscale to what the consumer needs, encode JPEG
// at the spec's quality for that use.

export const JPEG_QUALITY = {
  aiFrame: 0.6,
  scoreboard: 0.7,
  capture: 0.8,
  thumbnail: 0.8,
  assistant: 0.9,
  storyPhoto: 0.95,
  gallerySave: 0.95,
} as const;

/**
 * AI frames are downscaled to this long edge by default: Moondream works on ~378 px tiles, so more
 * pixels cost upload and encode time without better answers.
 */
export const AI_FRAME_LONG_EDGE = 1024;

export type FrameSource = HTMLVideoElement | HTMLImageElement;

export function sourceSize(source: FrameSource): { width: number; height: number } {
  if (source instanceof HTMLVideoElement) return { width: source.videoWidth, height: source.videoHeight };
  return { width: source.naturalWidth, height: source.naturalHeight };
}

/** Width and height after fitting the long edge into `maxLongEdge` (never upscaled). */
export function fitLongEdge(width: number, height: number, maxLongEdge?: number): { width: number; height: number } {
  if (!maxLongEdge || Math.max(width, height) <= maxLongEdge) return { width, height };
  const scale = maxLongEdge / Math.max(width, height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export interface GrabOptions {
  quality: number;
  maxLongEdge?: number;
}

export interface GrabbedFrame {
  dataUrl: string;
  width: number;
  height: number;
}

/** Marks kept in the page's timeline before they are cleared: enough for any benchmark run, bounded over a day-long broadcast. */
const MAX_FRAME_MARKS = 1000;
let frameMarks = 0;

/** Marks when a frame was really taken (benchmarks read these). */
function markFrame(): void {
  if (++frameMarks > MAX_FRAME_MARKS) {
    performance.clearMarks("framewise:frame");
    frameMarks = 1;
  }
  performance.mark("framewise:frame");
}

/**
 * Takes the current frame and encodes it as a JPEG data URL. The frame is drawn synchronously, at the
 * moment of the call (so bursts keep their cadence); the JPEG encoding happens off the main thread.
 * Throws the spec's capture errors.
 */
export function grabFrame(source: FrameSource, options: GrabOptions): Promise<GrabbedFrame> {
  const natural = sourceSize(source);
  if (!natural.width || !natural.height) return Promise.reject(new Error("Video metadata not loaded. Please wait a moment and try again."));
  const { width, height } = fitLongEdge(natural.width, natural.height, options.maxLongEdge);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  if (!context) return Promise.reject(new Error("Failed to create canvas context."));
  context.drawImage(source, 0, 0, width, height);
  markFrame();
  return new Promise<Blob>((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("Failed to encode the frame."))), "image/jpeg", options.quality);
  }).then(async (blob) => ({ dataUrl: await blobToDataUrl(blob), width, height }));
}

/** A blob (an encoded frame, a picked file) as a data URL. */
export function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("Could not read the image."));
    reader.readAsDataURL(blob);
  });
}
