// Tiny ONNX detectors the tests build themselves: the protobuf of an ONNX ModelProto written by hand (the few fields
// a graph of standard operators needs), so "bring your own model" is tested with real ONNX files that ONNX Runtime
// opens and runs, without shipping a trained model. Field numbers are onnx.proto's (onnx/onnx, onnx/onnx.proto).

// --- protobuf wire format: varints and length-delimited fields are all an ONNX graph needs ---

function varint(value: number | bigint): number[] {
  let rest = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest) byte |= 0x80;
    bytes.push(byte);
  } while (rest);
  return bytes;
}

type Field = number[];
const int = (field: number, value: number | bigint): Field => [...varint((field << 3) | 0), ...varint(value)];
const bytes = (field: number, value: Uint8Array | number[]): Field => [...varint((field << 3) | 2), ...varint(value.length), ...value];
const text = (field: number, value: string): Field => bytes(field, [...new TextEncoder().encode(value)]);
const float = (field: number, value: number): Field => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setFloat32(0, value, true);
  return [...varint((field << 3) | 5), ...out];
};
const message = (field: number, ...fields: Field[]): Field => bytes(field, fields.flat());

// --- ONNX messages ---

const FLOAT = 1;
const INT64 = 7;

/** A tensor's type and shape; a string dimension is symbolic (e.g. a dynamic batch). */
function valueInfo(field: number, name: string, shape: ReadonlyArray<number | string>): Field {
  const dims = shape.map((dim) => message(1, typeof dim === "number" ? int(1, dim) : text(2, dim)));
  return message(field, text(1, name), message(2, message(1, int(1, FLOAT), message(2, ...dims))));
}

function floatTensor(field: number, name: string, shape: readonly number[], values: ArrayLike<number>): Field {
  const raw = new Uint8Array(new Float32Array(Array.from(values)).buffer);
  return message(field, ...shape.map((dim) => int(1, dim)), int(2, FLOAT), text(8, name), bytes(9, raw));
}

function int64Tensor(field: number, name: string, values: readonly number[]): Field {
  const raw = new Uint8Array(new BigInt64Array(values.map(BigInt)).buffer);
  return message(field, int(1, values.length), int(2, INT64), text(8, name), bytes(9, raw));
}

interface Attribute {
  name: string;
  ints?: readonly number[];
  int?: number;
  float?: number;
}

function node(opType: string, inputs: readonly string[], outputs: readonly string[], attributes: readonly Attribute[] = []): Field {
  const attributeFields = attributes.map((attribute) => {
    if (attribute.ints) return message(5, text(1, attribute.name), ...attribute.ints.map((value) => int(8, value)), int(20, 7));
    if (attribute.float !== undefined) return message(5, text(1, attribute.name), float(2, attribute.float), int(20, 1));
    return message(5, text(1, attribute.name), int(3, attribute.int ?? 0), int(20, 2));
  });
  return message(1, ...inputs.map((input) => text(1, input)), ...outputs.map((output) => text(2, output)), text(4, opType), ...attributeFields);
}

interface Graph {
  nodes: Field[];
  initializers: Field[];
  inputs: Field[];
  outputs: Field[];
}

function model({ nodes, initializers, inputs, outputs }: Graph): Uint8Array {
  const graph = message(7, ...nodes, text(2, "framewise-test"), ...initializers, ...inputs, ...outputs);
  return new Uint8Array([...int(1, 8), ...text(2, "framewise-tests"), ...graph, ...message(8, text(1, ""), int(2, 13))]);
}

// --- detectors ---

/** A box in the model's input pixels (YOLO) or as fractions of the input (DETR), centre and size. */
export interface TestBox {
  cx: number;
  cy: number;
  w: number;
  h: number;
  /** One score per label: before the sigmoid/softmax for DETR logits, a probability for YOLO. */
  scores: readonly number[];
}

export interface TestDetectorOptions {
  inputSize?: number;
  /** Symbolic height and width in the input's shape (a model exported with dynamic axes). */
  dynamicInput?: boolean;
  /**
   * Each score is multiplied by the picture's mean brightness (0..1) when true, so a white frame gets the scores and a
   * black one none: proves the runtime feeds the frame's pixels scaled to 0..1 (and not 0..255 or nothing at all).
   */
  brightnessGated?: boolean;
}

/** The input tensor and, when gated, a [1,1,1] mean of it (a scalar that broadcasts over any output). */
function imageInput(name: string, options: TestDetectorOptions, nodes: Field[]): { inputs: Field[]; gate: string | undefined } {
  const size = options.inputSize ?? 64;
  const dims = options.dynamicInput ? [1, 3, "height", "width"] : [1, 3, size, size];
  if (options.brightnessGated) nodes.push(node("ReduceMean", [name], ["brightness"], [{ name: "keepdims", int: 0 }]));
  return { inputs: [valueInfo(11, name, dims)], gate: options.brightnessGated ? "brightness" : undefined };
}

/**
 * A YOLOv8/YOLO11-shaped detector: input `images` [1,3,S,S], output `output0` [1, 4 + labels, boxes] with rows
 * cx, cy, w, h (input pixels) then one score per label, as Ultralytics exports them.
 */
export function yoloDetector(boxes: readonly TestBox[], labelCount: number, options: TestDetectorOptions = {}): Uint8Array {
  const rows = 4 + labelCount;
  const values = new Float32Array(rows * boxes.length);
  boxes.forEach((box, column) => {
    [box.cx, box.cy, box.w, box.h, ...box.scores].forEach((value, row) => (values[row * boxes.length + column] = value));
  });
  const nodes: Field[] = [];
  const { inputs, gate } = imageInput("images", options, nodes);
  const shape = [1, rows, boxes.length];
  const initializers = [floatTensor(5, "predictions", shape, values)];
  if (gate) {
    // Only the score rows are gated: the boxes stay where they are.
    const scale = new Float32Array(rows).map((_, row) => (row < 4 ? 0 : 1));
    initializers.push(
      floatTensor(5, "score_rows", [1, rows, 1], scale),
      floatTensor(
        5,
        "box_rows",
        [1, rows, 1],
        scale.map((value) => 1 - value),
      ),
    );
    nodes.push(node("Mul", ["score_rows", gate], ["gate_rows"]), node("Add", ["gate_rows", "box_rows"], ["row_scale"]), node("Mul", ["predictions", "row_scale"], ["output0"]));
  } else {
    nodes.push(node("Identity", ["predictions"], ["output0"]));
  }
  return model({ nodes, initializers, inputs, outputs: [valueInfo(12, "output0", shape)] });
}

/**
 * A DETR-shaped detector: input `pixel_values` [1,3,S,S], outputs `logits` [1, queries, labels + 1] (the last class is
 * "no object", softmaxed) and `pred_boxes` [1, queries, 4] as cx, cy, w, h in fractions of the input.
 */
export function detrDetector(boxes: readonly TestBox[], labelCount: number, options: TestDetectorOptions = {}): Uint8Array {
  const nodes: Field[] = [];
  const { inputs, gate } = imageInput("pixel_values", options, nodes);
  const logits = boxes.flatMap((box) => [...box.scores, 0]);
  const initializers = [
    floatTensor(5, "logit_values", [1, boxes.length, labelCount + 1], logits),
    floatTensor(
      5,
      "box_values",
      [1, boxes.length, 4],
      boxes.flatMap((box) => [box.cx, box.cy, box.w, box.h]),
    ),
  ];
  if (gate) {
    // A dark picture pushes every label's logit 20 below where it is on a white one (the "no object" column stays).
    const labelColumns = Array.from({ length: labelCount + 1 }, (_, column) => (column < labelCount ? 20 : 0));
    initializers.push(floatTensor(5, "one", [1], [1]), floatTensor(5, "label_columns", [1, 1, labelCount + 1], labelColumns));
    nodes.push(node("Sub", [gate, "one"], ["darkness"]), node("Mul", ["darkness", "label_columns"], ["shift"]), node("Add", ["logit_values", "shift"], ["logits"]));
  } else {
    nodes.push(node("Identity", ["logit_values"], ["logits"]));
  }
  nodes.push(node("Identity", ["box_values"], ["pred_boxes"]));
  return model({
    nodes,
    initializers,
    inputs,
    outputs: [valueInfo(12, "logits", [1, boxes.length, labelCount + 1]), valueInfo(12, "pred_boxes", [1, boxes.length, 4])],
  });
}

/** A model that is valid ONNX but no detector: one input, one output of the wrong shape (a classifier's [1, 1000]). */
export function classifierModel(): Uint8Array {
  const nodes = [
    node(
      "ReduceMean",
      ["images"],
      ["mean"],
      [
        { name: "axes", ints: [2, 3] },
        { name: "keepdims", int: 0 },
      ],
    ),
    node("Tile", ["mean", "repeats"], ["probs"]),
  ];
  return model({
    nodes,
    initializers: [int64Tensor(5, "repeats", [1, 334])],
    inputs: [valueInfo(11, "images", [1, 3, 32, 32])],
    outputs: [valueInfo(12, "probs", [1, 1002])],
  });
}
