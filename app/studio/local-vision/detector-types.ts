// What the local detector's worker and its client agree on (types and defaults: both sides import it).
import type { Box } from "../../schemas/vision";
import { COCO_LABELS } from "./coco-labels";

/** tfjs backends in the order the detector tries them: the first that works is the fastest available. */
export const DETECTOR_BACKENDS = ["webgpu", "webgl", "wasm"] as const;
export type DetectorBackend = (typeof DETECTOR_BACKENDS)[number];

export interface LocalDetection {
  /** Normalised to the frame: 0..1 from its left and top edges. */
  box: Box;
  score: number;
  label: string;
}

export interface DetectOptions {
  /** Detections below this score are dropped (default: DEFAULT_DETECT_OPTIONS). */
  minScore?: number;
  /** Boxes overlapping a higher-scored one of their class by more than this IoU are dropped (default: DEFAULT_DETECT_OPTIONS). */
  iouThreshold?: number;
  maxDetections?: number;
}

/**
 * What the detector keeps when the caller does not say, chosen on real photos and footage (`npm run bench -- accuracy`):
 * 0.3 is where person recall and precision together peak on the photos; NMS at IoU 0.6 keeps two people in a group
 * whose boxes overlap by more than half, and cost no duplicate box there (0.5 to 0.7 measured the same).
 */
export const DEFAULT_DETECT_OPTIONS: Required<DetectOptions> = { minScore: 0.3, iouThreshold: 0.6, maxDetections: 50 };

/**
 * An administrator's ONNX detector's output family (read by ./detectors/onnx-layout.ts):
 * - yolo: Ultralytics-style exports. One output, [1, 4 + labels, boxes] (YOLOv8, YOLO11), [1, boxes, 5 + labels]
 *   (YOLOv5, YOLOv7: an objectness score first) or [1, boxes, 6] (NMS built in: x1, y1, x2, y2, score, class);
 *   boxes in input pixels.
 * - detr: DETR-family exports (DETR, RT-DETR, D-FINE as Hugging Face exports them). `logits` [1, queries, labels]
 *   (sigmoid) or [1, queries, labels + 1] (softmax, the last class "no object"), and `pred_boxes` [1, queries, 4]
 *   as centre and size in fractions of the input.
 */
export const ONNX_FORMATS = ["yolo", "detr"] as const;
export type OnnxFormat = (typeof ONNX_FORMATS)[number];

/** How pixels are scaled into the input: 0–1 (YOLO, RT-DETR), or ImageNet's mean and deviation per channel (DETR). */
export const PIXEL_SCALINGS = ["unit", "imagenet"] as const;
export type PixelScaling = (typeof PIXEL_SCALINGS)[number];

/** The deployment's local detector when it is the built-in model (CenterNet on COCO). */
export interface BuiltInDetectorChoice {
  kind: "built-in";
  name: string;
  labels: readonly string[];
}

/** An administrator's ONNX model (checked on upload by the server), fetched from `modelUrl`. */
export interface OnnxDetectorChoice {
  kind: "onnx";
  id: string;
  name: string;
  format: OnnxFormat;
  pixelScaling: PixelScaling;
  labels: readonly string[];
  /** The model's size, for the loading progress. */
  bytes: number;
  modelUrl: string;
}

/** Which model the studio's local detector runs: the administrator chooses it for the whole deployment. */
export type DetectorChoice = BuiltInDetectorChoice | OnnxDetectorChoice;

export const BUILT_IN_DETECTOR: BuiltInDetectorChoice = { kind: "built-in", name: "CenterNet (COCO, built in)", labels: COCO_LABELS };

export interface LoadOptions {
  /** The model to run (default the built-in). */
  model?: DetectorChoice;
  /** Backends to try, in order (default DETECTOR_BACKENDS); the benchmark pins one. */
  backends?: readonly DetectorBackend[];
  /** Let a software WebGPU/WebGL (SwiftShader, llvmpipe) count: only the benchmark, to show what it costs. */
  allowSoftware?: boolean;
}

export interface DetectorWorkerApi {
  /** Loads tfjs on the first backend that works and the model; `onProgress` gets 0..1 of the weights fetched. */
  load(onProgress: (fraction: number) => void, options?: LoadOptions): Promise<{ backend: DetectorBackend }>;
  /** Takes ownership of `frame` (closed after use). */
  detect(frame: ImageBitmap | VideoFrame, options?: DetectOptions): Promise<LocalDetection[]>;
  dispose(): void;
}
