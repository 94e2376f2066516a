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

/** Encodes the current frame as a JPEG data URL, or throws the spec's capture errors. */
export function grabFrame(source: FrameSource, options: GrabOptions): GrabbedFrame {
  const natural = sourceSize(source);
  if (!natural.width || !natural.height) throw new Error("Video metadata not loaded. Please wait a moment and try again.");
  const { width, height } = fitLongEdge(natural.width, natural.height, options.maxLongEdge);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("Failed to create canvas context.");
  context.drawImage(source, 0, 0, width, height);
  return { dataUrl: canvas.toDataURL("image/jpeg", options.quality), width, height };
}
