// An administrator's own ONNX detector ("bring your own model"), as far as Framewise reads it: which input takes the
// picture, how the picture is scaled into it, and how the YOLO- or DETR-family outputs become the product's boxes.
// Pure arithmetic on shapes and Float32Arrays, so the browser (onnxruntime-web, ./onnx.ts) and the server
// (onnxruntime-node, server/local-detector/onnx-detector.ts) read a model the same way and check it the same way.
import { ONNX_FORMATS, PIXEL_SCALINGS, type LocalDetection, type OnnxFormat, type PixelScaling } from "../detector-types";
import { boxFromInput, type Letterbox } from "../letterbox";

export { ONNX_FORMATS, PIXEL_SCALINGS, type OnnxFormat, type PixelScaling };

/** The input size used when the model leaves it open (exported with dynamic axes): what YOLO and RT-DETR train at. */
export const DEFAULT_DYNAMIC_INPUT = 640;
/** At most this many labels (a model's class list); COCO has 80, Objects365 365, LVIS 1203. */
export const MAX_LABELS = 1500;
/** The largest square input accepted: beyond it a browser could not keep up with a camera. */
export const MAX_INPUT_SIZE = 1280;

/** A tensor as ONNX Runtime describes it (`session.inputMetadata`): a dimension is a number or a symbolic name. */
export interface TensorInfo {
  name: string;
  shape: ReadonlyArray<number | string>;
  type: string;
}

/** An output as a run answers it. */
export interface TensorValue {
  dims: readonly number[];
  data: Float32Array;
}

/** What a runtime needs to feed the model a frame and read its answer. */
export interface OnnxDetectorSpec {
  format: OnnxFormat;
  labels: readonly string[];
  pixelScaling: PixelScaling;
  inputName: string;
  /** [1, 3, H, W] (channels first, PyTorch exports) or [1, H, W, 3] (channels last, TensorFlow exports). */
  channelsLast: boolean;
  inputWidth: number;
  inputHeight: number;
}

/** A model that does not fit, with a message an administrator can act on. */
export class OnnxModelProblem extends Error {
  override name = "OnnxModelProblem";
}

const shapeText = (shape: ReadonlyArray<number | string>) => `[${shape.join(", ")}]`;

/**
 * Reads the picture input off the model's inputs and checks the label list; throws OnnxModelProblem when the model
 * is not an image detector Framewise can feed.
 */
export function describeOnnxDetector(format: OnnxFormat, labels: readonly string[], pixelScaling: PixelScaling, inputs: readonly TensorInfo[]): OnnxDetectorSpec {
  if (labels.length === 0) throw new OnnxModelProblem("The label list is empty: give the model's class names, one per line, in the order of its class ids.");
  if (labels.length > MAX_LABELS) throw new OnnxModelProblem(`The label list has ${labels.length} names; at most ${MAX_LABELS} are accepted.`);
  if (inputs.length !== 1) {
    throw new OnnxModelProblem(`The model takes ${inputs.length} inputs (${inputs.map((input) => input.name).join(", ")}); a detector Framewise runs takes one: the picture.`);
  }
  const [input] = inputs as [TensorInfo];
  if (input.type !== "float32") throw new OnnxModelProblem(`The model's input "${input.name}" is ${input.type}; Framewise feeds float32 pixels.`);
  const { shape } = input;
  const channelsFirst = shape.length === 4 && shape[1] === 3;
  const channelsLast = shape.length === 4 && shape[3] === 3 && !channelsFirst;
  if (!channelsFirst && !channelsLast) {
    throw new OnnxModelProblem(`The model's input "${input.name}" is ${shapeText(shape)}; an image detector takes [1, 3, height, width] or [1, height, width, 3].`);
  }
  if (typeof shape[0] === "number" && shape[0] !== 1)
    throw new OnnxModelProblem(`The model's input "${input.name}" is a batch of ${shape[0]}; Framewise feeds one picture at a time.`);
  const side = (dim: number | string | undefined) => (typeof dim === "number" && dim > 0 ? dim : DEFAULT_DYNAMIC_INPUT);
  const inputHeight = side(channelsLast ? shape[1] : shape[2]);
  const inputWidth = side(channelsLast ? shape[2] : shape[3]);
  if (inputWidth < 32 || inputHeight < 32 || inputWidth > MAX_INPUT_SIZE || inputHeight > MAX_INPUT_SIZE) {
    throw new OnnxModelProblem(`The model's input is ${inputWidth}×${inputHeight} pixels; Framewise feeds 32 to ${MAX_INPUT_SIZE} pixels a side.`);
  }
  return { format, labels, pixelScaling, inputName: input.name, channelsLast, inputWidth, inputHeight };
}

const IMAGENET_MEAN = [0.485, 0.456, 0.406] as const;
const IMAGENET_STD = [0.229, 0.224, 0.225] as const;

/** The input tensor's values from RGBA pixels already sized to the input (letterboxed): float32, scaled, in the model's channel order. */
export function inputFromPixels(spec: OnnxDetectorSpec, rgba: Uint8Array | Uint8ClampedArray): Float32Array {
  const pixels = spec.inputWidth * spec.inputHeight;
  if (rgba.length !== pixels * 4) throw new Error(`Expected ${pixels * 4} bytes of RGBA, got ${rgba.length}`);
  const values = new Float32Array(pixels * 3);
  const imagenet = spec.pixelScaling === "imagenet";
  for (let channel = 0; channel < 3; channel++) {
    const mean = imagenet ? IMAGENET_MEAN[channel]! : 0;
    const scale = imagenet ? 1 / (255 * IMAGENET_STD[channel]!) : 1 / 255;
    const offset = imagenet ? mean / IMAGENET_STD[channel]! : 0;
    for (let pixel = 0; pixel < pixels; pixel++) {
      const value = rgba[pixel * 4 + channel]! * scale - offset;
      if (spec.channelsLast) values[pixel * 3 + channel] = value;
      else values[channel * pixels + pixel] = value;
    }
  }
  return values;
}

/** The model's candidates scoring at least `minScore`, as the product's boxes on the frame (not yet suppressed). */
export function decodeOnnxOutputs(spec: OnnxDetectorSpec, outputs: Readonly<Record<string, TensorValue>>, fit: Letterbox, minScore: number): LocalDetection[] {
  return spec.format === "yolo" ? decodeYolo(spec, outputs, fit, minScore) : decodeDetr(spec, outputs, fit, minScore);
}

/** A [1, a, b] or [a, b] output as its two meaningful dimensions. */
function matrix(name: string, value: TensorValue): [number, number] {
  const dims = value.dims.length === 3 && value.dims[0] === 1 ? value.dims.slice(1) : value.dims;
  if (dims.length !== 2) throw new OnnxModelProblem(`The model's output "${name}" is ${shapeText(value.dims)}; a detector answers [1, boxes, values] or [1, values, boxes].`);
  return [dims[0]!, dims[1]!];
}

function decodeYolo(spec: OnnxDetectorSpec, outputs: Readonly<Record<string, TensorValue>>, fit: Letterbox, minScore: number): LocalDetection[] {
  const names = Object.keys(outputs);
  const name = names[0];
  if (names.length !== 1 || name === undefined) {
    throw new OnnxModelProblem(`The model answers ${names.length} outputs (${names.join(", ")}); a YOLO detector answers one. Is it a DETR-family model?`);
  }
  const output = outputs[name]!;
  const [rows, columns] = matrix(name, output);
  const labelCount = spec.labels.length;
  const data = output.data;
  const found: LocalDetection[] = [];
  const push = (classId: number, score: number, x1: number, y1: number, x2: number, y2: number) => {
    const label = spec.labels[classId];
    if (score < minScore || label === undefined || !(x2 > x1 && y2 > y1)) return;
    found.push({ box: boxFromInput(fit, x1, y1, x2, y2), score, label });
  };
  const fromCentre = (classId: number, score: number, cx: number, cy: number, w: number, h: number) => push(classId, score, cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2);
  /** The best class of one candidate whose class scores start at `first` and step by `stride`. */
  const best = (first: number, stride: number): [number, number] => {
    let classId = 0;
    let score = -Infinity;
    for (let label = 0; label < labelCount; label++) {
      const value = data[first + label * stride]!;
      if (value > score) [classId, score] = [label, value];
    }
    return [classId, score];
  };
  if (rows === 4 + labelCount) {
    // YOLOv8/YOLO11: one column per candidate.
    for (let box = 0; box < columns; box++) {
      const [classId, score] = best(4 * columns + box, columns);
      if (score >= minScore) fromCentre(classId, score, data[box]!, data[columns + box]!, data[2 * columns + box]!, data[3 * columns + box]!);
    }
  } else if (columns === 4 + labelCount) {
    for (let box = 0; box < rows; box++) {
      const at = box * columns;
      const [classId, score] = best(at + 4, 1);
      if (score >= minScore) fromCentre(classId, score, data[at]!, data[at + 1]!, data[at + 2]!, data[at + 3]!);
    }
  } else if (columns === 5 + labelCount) {
    // YOLOv5/v7: objectness times the class score.
    for (let box = 0; box < rows; box++) {
      const at = box * columns;
      const objectness = data[at + 4]!;
      if (objectness < minScore) continue;
      const [classId, classScore] = best(at + 5, 1);
      fromCentre(classId, objectness * classScore, data[at]!, data[at + 1]!, data[at + 2]!, data[at + 3]!);
    }
  } else if (columns === 6) {
    // NMS built into the export: corners, score, class id.
    for (let box = 0; box < rows; box++) {
      const at = box * columns;
      push(Math.round(data[at + 5]!), data[at + 4]!, data[at]!, data[at + 1]!, data[at + 2]!, data[at + 3]!);
    }
  } else {
    throw new OnnxModelProblem(
      `The model's output "${name}" is ${shapeText(output.dims)}; a YOLO detector with ${labelCount} labels answers [1, ${4 + labelCount}, boxes] (YOLOv8 and later), ` +
        `[1, boxes, ${5 + labelCount}] (YOLOv5, YOLOv7) or [1, boxes, 6] (NMS built in). Does the label list match the model?`,
    );
  }
  return found;
}

function decodeDetr(spec: OnnxDetectorSpec, outputs: Readonly<Record<string, TensorValue>>, fit: Letterbox, minScore: number): LocalDetection[] {
  const labelCount = spec.labels.length;
  const entries = Object.entries(outputs).map(([name, value]) => ({ name, value, dims: matrix(name, value) }));
  const boxes = entries.find((entry) => entry.dims[1] === 4 && entry.name !== "logits") ?? entries.find((entry) => entry.dims[1] === 4);
  const logits = entries.find((entry) => entry !== boxes && (entry.dims[1] === labelCount || entry.dims[1] === labelCount + 1));
  if (!boxes || !logits || boxes.dims[0] !== logits.dims[0]) {
    const shapes = entries.map((entry) => `"${entry.name}" ${shapeText(entry.value.dims)}`).join(", ");
    throw new OnnxModelProblem(
      `The model answers ${shapes || "nothing"}; a DETR-family detector with ${labelCount} labels answers logits [1, queries, ${labelCount}] ` +
        `or [1, queries, ${labelCount + 1}] and boxes [1, queries, 4]. Does the label list match the model?`,
    );
  }
  const [queries, classes] = logits.dims;
  const softmax = classes === labelCount + 1;
  const scores = logits.value.data;
  const corners = boxes.value.data;
  const found: LocalDetection[] = [];
  for (let query = 0; query < queries; query++) {
    const at = query * classes;
    let classId = 0;
    let top = -Infinity;
    for (let label = 0; label < labelCount; label++) {
      if (scores[at + label]! > top) [classId, top] = [label, scores[at + label]!];
    }
    let score: number;
    if (softmax) {
      // The best real class's share of all classes, "no object" included.
      let max = -Infinity;
      for (let label = 0; label < classes; label++) max = Math.max(max, scores[at + label]!);
      let sum = 0;
      for (let label = 0; label < classes; label++) sum += Math.exp(scores[at + label]! - max);
      score = Math.exp(top - max) / sum;
    } else {
      score = 1 / (1 + Math.exp(-top));
    }
    if (score < minScore) continue;
    const [cx, cy, w, h] = [corners[query * 4]!, corners[query * 4 + 1]!, corners[query * 4 + 2]!, corners[query * 4 + 3]!];
    if (!(w > 0 && h > 0)) continue;
    // Fractions of the (letterboxed) input, to input pixels, then to the frame.
    const [x1, x2] = [(cx - w / 2) * spec.inputWidth, (cx + w / 2) * spec.inputWidth];
    const [y1, y2] = [(cy - h / 2) * spec.inputHeight, (cy + h / 2) * spec.inputHeight];
    found.push({ box: boxFromInput(fit, x1, y1, x2, y2), score, label: spec.labels[classId]! });
  }
  return found;
}
