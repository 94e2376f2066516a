// CenterNet's work on one frame, one code for both places it runs: the studio's detector worker (./centernet.ts, on
// the tfjs bundled in @vladmandic/human, a frame as an ImageBitmap) and the server's detector threads
// (server/local-detector/built-in-detector.ts, on tfjs's own packages, a frame as RGB bytes). The frame is
// letterboxed into the 512×512 input, run, and the 100 rows of `tower_0/detections` (x1,y1,x2,y2,score,class in
// input pixels) become the product's boxes. Nothing here imports an asset, so Node can import it.
import { COCO_LABELS } from "../coco-labels";
import type { LocalDetection } from "../detector-types";
import { boxFromInput, letterbox } from "../letterbox";
import type { GraphModel, Tensor, Tfjs } from "../tfjs-types";

/** The model's square input; its `detections` output is in these pixels. */
export const CENTERNET_INPUT_SIZE = 512;
const OUTPUT = "tower_0/detections";
/** Mid grey around a letterboxed frame: neither a dark nor a bright edge for the model to see things in. */
const PAD_VALUE = 114;

/** The tfjs operations CenterNet's frame needs (both tfjs builds have them). */
export type CenterNetOps = Pick<Tfjs, "image" | "pad" | "tidy" | "cast" | "expandDims" | "zeros" | "dispose">;

/** A frame for the model: its size and its pixels as an int32 [height, width, 3] tensor, made inside the run's tidy. */
export interface CenterNetFrame {
  width: number;
  height: number;
  pixels: () => Tensor;
}

/** The first run compiles the backend's kernels (shaders on WebGL/WebGPU): paid at load, not on the first frame. */
export async function warmUpCenterNet(tf: CenterNetOps, model: GraphModel): Promise<void> {
  const input = tf.zeros([1, CENTERNET_INPUT_SIZE, CENTERNET_INPUT_SIZE, 3]);
  const output = model.execute(input, OUTPUT);
  await output.data();
  tf.dispose([input, output]);
}

/** Candidates scoring at least `minScore`, boxes as fractions of the frame; not yet suppressed (they may overlap). */
export async function detectWithCenterNet(tf: CenterNetOps, model: GraphModel, frame: CenterNetFrame, minScore: number): Promise<LocalDetection[]> {
  // Letterboxed, not stretched: the model learnt people at their true shape.
  const fit = letterbox(frame.width, frame.height, CENTERNET_INPUT_SIZE);
  const input = tf.tidy(() => {
    const scaled = tf.image.resizeBilinear(frame.pixels(), [fit.height, fit.width]);
    const padding: Array<[number, number]> = [
      [fit.top, CENTERNET_INPUT_SIZE - fit.height - fit.top],
      [fit.left, CENTERNET_INPUT_SIZE - fit.width - fit.left],
      [0, 0],
    ];
    return tf.expandDims(tf.cast(tf.pad(scaled, padding, PAD_VALUE), "float32"), 0);
  });
  const output = model.execute(input, OUTPUT);
  tf.dispose(input);
  const rows = (await output.array()) as number[][][];
  tf.dispose(output);
  const candidates: LocalDetection[] = [];
  for (const [x1 = 0, y1 = 0, x2 = 0, y2 = 0, score = 0, classId = Number.NaN] of rows[0] ?? []) {
    const label = COCO_LABELS[classId];
    if (score < minScore || label === undefined) continue;
    // The model's corners in input pixels become the product's box: corners as fractions of the frame.
    candidates.push({ box: boxFromInput(fit, x1, y1, x2, y2), score, label });
  }
  return candidates;
}
