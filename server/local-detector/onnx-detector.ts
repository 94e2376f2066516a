// An administrator's ONNX detector on the server, through onnxruntime-node: opened to check it on upload (does it
// load, does it take a picture, does it answer boxes in the format and with the labels it was given) and to run it on
// pictures (the accuracy benchmark) and on decoded frames (the detector pool's threads, ./pool/). The model is read
// with the same code as in the browser (app/studio/local-vision/detectors/onnx-layout.ts), so a model that passes
// here runs in the studio.
import * as ort from "onnxruntime-node";
import sharp, { type Sharp } from "sharp";
import type { LocalDetection } from "#app/studio/local-vision/detector-types";
import {
  decodeOnnxOutputs,
  describeOnnxDetector,
  inputFromPixels,
  OnnxModelProblem,
  type OnnxDetectorSpec,
  type OnnxFormat,
  type PixelScaling,
  type TensorInfo,
  type TensorValue,
} from "#app/studio/local-vision/detectors/onnx-layout";
import { letterbox, type Letterbox } from "#app/studio/local-vision/letterbox";
import type { RgbPicture } from "./frame-detector";

export { OnnxModelProblem };

export interface OnnxDetectorChoice {
  format: OnnxFormat;
  labels: readonly string[];
  pixelScaling: PixelScaling;
}

export interface ServerOnnxDetector {
  spec: OnnxDetectorSpec;
  /** Candidates scoring at least `minScore` on a picture (any format sharp reads), not yet suppressed. */
  detect(picture: Buffer | Uint8Array, minScore: number): Promise<LocalDetection[]>;
  /** The same on a decoded frame (the server's detector threads). */
  detectFrame(frame: RgbPicture, minScore: number): Promise<LocalDetection[]>;
  close(): Promise<void>;
}

/** Mid grey in the letterbox's padding, as the browser pads (and as YOLO trains). */
const PAD = { r: 114, g: 114, b: 114, alpha: 1 };

function tensorInfo(metadata: readonly ort.InferenceSession.ValueMetadata[]): TensorInfo[] {
  return metadata.map((value) => (value.isTensor ? { name: value.name, shape: value.shape, type: value.type } : { name: value.name, shape: [], type: "a non-tensor value" }));
}

/** Opens the model; OnnxModelProblem when ONNX Runtime cannot, or when it is not an image detector Framewise can feed. */
export async function openOnnxDetector(bytes: Uint8Array, choice: OnnxDetectorChoice, { threads = 1 }: { threads?: number } = {}): Promise<ServerOnnxDetector> {
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: "all" });
  } catch (error) {
    throw new OnnxModelProblem(`ONNX Runtime cannot open this file as a model: ${firstLine(error)}`);
  }
  let spec: OnnxDetectorSpec;
  try {
    spec = describeOnnxDetector(choice.format, choice.labels, choice.pixelScaling, tensorInfo(session.inputMetadata));
  } catch (error) {
    await session.release();
    throw error;
  }
  const run = async (pixels: Uint8Array, fit: Letterbox, minScore: number): Promise<LocalDetection[]> => {
    const dims = spec.channelsLast ? [1, spec.inputHeight, spec.inputWidth, 3] : [1, 3, spec.inputHeight, spec.inputWidth];
    let answer: ort.InferenceSession.ReturnType;
    try {
      answer = await session.run({ [spec.inputName]: new ort.Tensor("float32", inputFromPixels(spec, pixels), dims) });
    } catch (error) {
      throw new OnnxModelProblem(`The model failed on a ${spec.inputWidth}×${spec.inputHeight} picture: ${firstLine(error)}`);
    }
    const outputs: Record<string, TensorValue> = {};
    for (const [name, value] of Object.entries(answer)) {
      if (value.type !== "float32") throw new OnnxModelProblem(`The model's output "${name}" is ${value.type}; a detector answers float32 boxes and scores.`);
      outputs[name] = { dims: value.dims, data: value.data as Float32Array };
    }
    return decodeOnnxOutputs(spec, outputs, fit, minScore);
  };
  /** The picture letterboxed into the model's input as RGBA (what inputFromPixels reads, as the browser's canvas gives). */
  const letterboxed = async (image: Sharp, width: number, height: number, minScore: number) => {
    const fit = letterbox(width, height, spec.inputWidth, spec.inputHeight);
    const pixels = await image
      .resize(fit.width, fit.height, { fit: "fill" })
      .extend({ left: fit.left, top: fit.top, right: spec.inputWidth - fit.width - fit.left, bottom: spec.inputHeight - fit.height - fit.top, background: PAD })
      .removeAlpha()
      .ensureAlpha()
      .raw()
      .toBuffer();
    return run(pixels, fit, minScore);
  };
  return {
    spec,
    async detect(picture, minScore) {
      const image = sharp(picture).rotate();
      // The size after the EXIF orientation turns it upright (what `rotate()` outputs), not the stored one.
      const { width, height } = (await image.metadata()).autoOrient;
      return letterboxed(image, width, height, minScore);
    },
    detectFrame: ({ width, height, rgb }, minScore) => letterboxed(sharp(rgb, { raw: { width, height, channels: 3 } }), width, height, minScore),
    close: () => session.release(),
  };
}

export interface OnnxDetectorCheck {
  spec: OnnxDetectorSpec;
  /** Milliseconds one picture took here (one thread), after a first run. */
  msPerPicture: number;
}

/**
 * What the upload does before it keeps a model: opens it, runs it twice on a grey picture and decodes its answer in the
 * chosen format with the given labels. Throws OnnxModelProblem with what does not fit.
 */
export async function checkOnnxDetector(bytes: Uint8Array, choice: OnnxDetectorChoice): Promise<OnnxDetectorCheck> {
  const detector = await openOnnxDetector(bytes, choice);
  try {
    const grey = await sharp({ create: { width: 64, height: 48, channels: 3, background: PAD } })
      .png()
      .toBuffer();
    await detector.detect(grey, 0.5);
    const started = performance.now();
    await detector.detect(grey, 0.5);
    return { spec: detector.spec, msPerPicture: performance.now() - started };
  } finally {
    await detector.close();
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0]!.slice(0, 300);
}
