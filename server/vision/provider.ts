// What a vision model is asked and answers, whoever runs it. One implementation per file under ./providers/
// (Moondream's REST API today): it only answers, and the service (./service.ts) does everything around a call
// (the frame, the key, the pace, the quota, the user's calls per hour) and shapes the answers for the studio.
import type { InlineImage } from "./inline-image";

export interface CallContext {
  /** The key the call is made with; a local Moondream Station needs none. */
  apiKey?: string | undefined;
  /** Aborts the call (and its waits) when the caller goes away. */
  signal?: AbortSignal | undefined;
}

export type CaptionLength = "short" | "normal" | "long";
/** A data URL, or a checked frame that goes into the body without being escaped or re-encoded. */
export type ImageInput = string | InlineImage;
/** Fractions of the frame, as the model gave them (not yet clamped into it). */
export type ProviderBox = { x_min: number; y_min: number; x_max: number; y_max: number };
export type ProviderPoint = { x: number; y: number };
/** An outline: an SVG path normalised to its bbox (not to the frame), as the model gave it (checked by server/photo-edits/path.ts). */
export type ProviderSegment = { path: string; bbox: ProviderBox };
/** A seed for segment: a point [x, y] or a box [x1, y1, x2, y2], fractions of the frame. */
export type SpatialRef = [number, number] | [number, number, number, number];

export interface VisionProvider {
  /** A caption; with onChunk the answer streams in and each piece is handed over as it arrives. */
  caption(input: { imageUrl: ImageInput; length?: CaptionLength }, ctx: CallContext, onChunk?: (text: string) => void): Promise<string>;
  /** An answer to a question about the frame, streamed like a caption with onChunk. */
  query(input: { imageUrl?: ImageInput; question: string; reasoning?: boolean }, ctx: CallContext, onChunk?: (text: string) => void): Promise<string>;
  /** Boxes around each instance of `object`, at most `maxObjects`. */
  detect(input: { imageUrl: ImageInput; object: string; maxObjects: number }, ctx: CallContext): Promise<ProviderBox[]>;
  /** A point on each instance of `object`. */
  point(input: { imageUrl: ImageInput; object: string; maxObjects?: number }, ctx: CallContext): Promise<ProviderPoint[]>;
  /** The outline of `object`, optionally seeded with points or boxes; with onPath the coarse outline streams in first. */
  segment(input: { imageUrl: ImageInput; object: string; spatialRefs?: SpatialRef[] }, ctx: CallContext, onPath?: (path: string) => void): Promise<ProviderSegment>;
  /** Whether this provider is known to segment: "unsupported" once it answered that it cannot (remembered a while). */
  segmentSupport(): SegmentSupport;
}

export type SegmentSupport = "unknown" | "available" | "unsupported";
