// CenterNet (MobileNetV3) on COCO, from @vladmandic/human's package (docs/decisions/0005-local-detector.md): a
// 512×512 input, and 100 candidates out of `tower_0/detections` as x1,y1,x2,y2,score,class in input pixels.
import modelBinUrl from "@vladmandic/human/models/centernet.bin?url";
import modelJsonUrl from "@vladmandic/human/models/centernet.json?url";
import { COCO_LABELS } from "../coco-labels";
import type { LocalDetection } from "../detector-types";
import type { Tensor } from "../tfjs-types";
import type { DetectorModel } from "./detector-model";
import { loadGraphModel } from "./graph-model";

/** The model's square input; its `detections` output is in these pixels. */
const INPUT_SIZE = 512;
const OUTPUT = "tower_0/detections";

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
        const input = tf.tidy(() => {
          const pixels = tf.browser.fromPixels(bitmap);
          return tf.expandDims(tf.cast(tf.image.resizeBilinear(pixels, [INPUT_SIZE, INPUT_SIZE]), "float32"), 0);
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
          candidates.push({ box: { x_min: clamp(x1 / INPUT_SIZE), y_min: clamp(y1 / INPUT_SIZE), x_max: clamp(x2 / INPUT_SIZE), y_max: clamp(y2 / INPUT_SIZE) }, score, label });
        }
        return candidates;
      },
      dispose: () => model.dispose(),
    };
  },
};

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}
