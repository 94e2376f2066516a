// What the detector pool answers to (server/local-vision/pipeline/types.ts re-exports these for the pipeline, which
// sits above this folder: local-detector imports nothing of local-vision).
import type { LocalDetection, OnnxFormat, PixelScaling } from "#app/studio/local-vision/detector-types";
import type { RgbPicture } from "../frame-detector";

/** A region of the frame, as fractions 0–1 of its width and height. */
export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface DetectRequest {
  /** Which camera asks: the pool serves cameras in turn, one request each at a time. */
  cameraId: string;
  /** The pipeline's RawFrame (its `at` is not needed here). */
  frame: RgbPicture;
  minScore: number;
  /** Where motion was: the detector also looks closer at small regions (small, distant people). Empty: whole frame only. */
  regions: readonly Region[];
}

export interface DetectResult {
  /** After per-class non-maximum suppression, as the studio's detector answers; boxes as fractions of the frame. */
  detections: LocalDetection[];
  /** The thread's wall time for the request (crops included). */
  detectMs: number;
  /** The thread's own CPU time for it (see detector-thread.ts for how it is read). */
  cpuMs: number;
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
   * Rejects (a failed frame) when the thread running it died or the model could not load.
   */
  detect(request: DetectRequest): Promise<DetectResult | "busy">;
  /** The labels the current model knows (the classes a camera can watch for). */
  labels(): readonly string[];
  stats(): DetectorPoolStats;
  close(): Promise<void>;
}

/** The model the threads run: the built-in one, or an administrator's ONNX model with its bytes (from the blob store). */
export type PoolModel = { kind: "built-in" } | { kind: "onnx"; name: string; format: OnnxFormat; pixelScaling: PixelScaling; labels: readonly string[]; bytes: Uint8Array };
