// CenterNet (MobileNetV3) on COCO, from @vladmandic/human's package (docs/decisions/0005-local-detector.md): a
// 512×512 input, and 100 candidates out of `tower_0/detections` as x1,y1,x2,y2,score,class in input pixels.
import modelBinUrl from "@vladmandic/human/models/centernet.bin?url";
import modelJsonUrl from "@vladmandic/human/models/centernet.json?url";
import { COCO_LABELS } from "../coco-labels";
import type { LocalDetection } from "../detector-types";
import { boxFromInput, letterbox } from "../letterbox";
import type { Tensor } from "../tfjs-types";
import type { DetectorModel } from "./detector-model";
import { loadGraphModel } from "./graph-model";

/** The model's square input; its `detections` output is in these pixels. */
const INPUT_SIZE = 512;
const OUTPUT = "tower_0/detections";
/** Mid grey around a letterboxed frame: neither a dark nor a bright edge for the model to see things in. */
const PAD_VALUE = 114;

export const centerNet: DetectorModel = {
  async load(tf, onProgress) {
    const model = await loadGraphModel(tf, modelJsonUrl, modelBinUrl, onProgress);
    // The first run compiles the backend's kernels (shaders on WebGL/WebGPU): pay it here, not on the first frame.
    const warmUp = tf.zeros([1, INPUT_SIZE, INPUT_SIZE, 3]);
    const warmOutput = model.execute(warmUp, OUTPUT);
    await warmOutput.data();
    tf.dispose([warmUp, warmOutput]);
    onProgress(1);
    return {
      async detect(bitmap, minScore) {
        // Letterboxed, not stretched: the model learnt people at their true shape.
        const fit = letterbox(bitmap.width, bitmap.height, INPUT_SIZE);
        const input = tf.tidy(() => {
          const scaled = tf.image.resizeBilinear(tf.browser.fromPixels(bitmap), [fit.height, fit.width]);
          const padding: Array<[number, number]> = [
            [fit.top, INPUT_SIZE - fit.height - fit.top],
            [fit.left, INPUT_SIZE - fit.width - fit.left],
            [0, 0],
          ];
          return tf.expandDims(tf.cast(tf.pad(scaled, padding, PAD_VALUE), "float32"), 0);
        });
        const output: Tensor = model.execute(input, OUTPUT);
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
      },
      dispose: () => model.dispose(),
    };
  },
};
