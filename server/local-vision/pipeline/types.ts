// What the parts of the server's always-on local-vision pipeline (issue 30) agree on: the frame source decodes a
// camera's stream into raw pictures, motion decides where to look, the detector pool finds objects, and the camera
// pipeline (camera-pipeline.ts) runs the studio's scene engine on them and records the events.
import type { Region } from "../../local-detector/pool/types";

// The detector pool's side of the seam lives with the pool (local-detector sits below local-vision in server/'s layers).
export type { DetectorPool, DetectorPoolStats, DetectRequest, DetectResult, Region } from "../../local-detector/pool/types";

/** One decoded picture: packed RGB, 3 bytes a pixel, rows top to bottom, no padding between rows. */
export interface RawFrame {
  width: number;
  height: number;
  rgb: Uint8Array;
  /** Date.now() when it was decoded. */
  at: number;
}

export interface FrameSourceOptions {
  /** Frames per second to decode (default 5). */
  fps: number;
  /** Width of the decoded frames in pixels (default 640); the height keeps the picture's aspect, rounded to even. */
  width: number;
}

export interface FrameSourceStats {
  /** Frames decoded since the source opened. */
  decoded: number;
  /** Frames decoded that nobody took before a newer one came (detection was behind). */
  dropped: number;
  /** The decoder's CPU time so far, in milliseconds (its ffmpeg process). */
  decoderCpuMs: number;
  /** Date.now() of the latest frame, or null before the first. */
  lastFrameAt: number | null;
  /** Decoder processes started so far: one per pull (re)start, plus one after a decoder that failed on its own. */
  decoders: number;
  /**
   * Bytes of the camera stream waiting for the decoder: held by the source's viewer (its queue and in flight) and
   * buffered for the decoder's stdin. Bounded by the viewer's limits, however far behind the decoder is.
   */
  backlogBytes: number;
}

/** A camera's decoded frames. Holds the camera's one pull (decision 0008) while open. */
export interface FrameSource {
  /**
   * The next frame not yet taken, waiting for one if needed; null once the source is closed. One consumer.
   * Only the newest frame is kept: one decoded while the previous is still untaken replaces it (counted as dropped).
   * A frame's `rgb` is the consumer's until it calls `next()` again: its buffer is then reused for a later frame (no
   * garbage per frame). Copy it (`rgb.slice()`) to keep it longer; a buffer transferred to a worker is not reused.
   */
  next(): Promise<RawFrame | null>;
  stats(): FrameSourceStats;
  close(): Promise<void>;
}

export interface MotionResult {
  /** Share of the picture that moved (0–1). */
  moving: number;
  /** Boxes around the moving areas, merged and padded, largest first. Empty: nothing moved. */
  regions: Region[];
}

/** A cheap motion detector for one camera: a small grey picture against a running background. */
export interface MotionDetector {
  update(frame: RawFrame): MotionResult;
}
