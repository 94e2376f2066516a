// What the parts of the server's always-on local-vision pipeline (issue 30) agree on: the frame source decodes a
// camera's stream into raw pictures, motion decides where to look, the detector pool finds objects, and the camera
// pipeline (camera-pipeline.ts) runs the studio's scene engine on them and records the events.
import type { LocalDetection } from "#app/studio/local-vision/detector-types";

/** One decoded picture: packed RGB, 3 bytes a pixel, rows top to bottom, no padding between rows. */
export interface RawFrame {
  width: number;
  height: number;
  rgb: Uint8Array;
  /** Date.now() when it was decoded. */
  at: number;
}

/** A region of the frame, as fractions 0–1 of its width and height. */
export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
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

export interface DetectRequest {
  /** Which camera asks: the pool serves cameras in turn, one request each at a time. */
  cameraId: string;
  frame: RawFrame;
  minScore: number;
  /** Where motion was: the detector also looks closer at small regions (small, distant people). Empty: whole frame only. */
  regions: readonly Region[];
}

export interface DetectorPoolStats {
  workers: number;
  /** Requests waiting for a worker. */
  waiting: number;
  /** Name of the model the workers run. */
  model: string;
}

/** Worker threads running the deployment's local detector, shared fairly by every camera of the process. */
export interface DetectorPool {
  /**
   * Detections on the frame (boxes as fractions of the frame), or "busy" when this camera already has a request
   * waiting (its newest frame should replace it rather than queue). `detectMs` is the worker's time for it.
   */
  detect(request: DetectRequest): Promise<{ detections: LocalDetection[]; detectMs: number; cpuMs: number } | "busy">;
  /** The labels the current model knows (the classes a camera can watch for). */
  labels(): readonly string[];
  stats(): DetectorPoolStats;
  close(): Promise<void>;
}
