// CenterNet (MobileNetV3) on COCO, from @vladmandic/human's package (docs/decisions/0005-local-detector.md), in the
// studio's detector worker: its files are hashed assets of our origin; what it does with a frame is ./centernet-run.ts,
// shared with the server's detector threads.
import modelBinUrl from "@vladmandic/human/models/centernet.bin?url";
import modelJsonUrl from "@vladmandic/human/models/centernet.json?url";
import { detectWithCenterNet, warmUpCenterNet } from "./centernet-run";
import type { DetectorModel } from "./detector-model";
import { loadGraphModel } from "./graph-model";

export const centerNet: DetectorModel = {
  async load(tf, onProgress) {
    const model = await loadGraphModel(tf, modelJsonUrl, modelBinUrl, onProgress);
    await warmUpCenterNet(tf, model);
    onProgress(1);
    return {
      detect: (bitmap, minScore) => detectWithCenterNet(tf, model, { width: bitmap.width, height: bitmap.height, pixels: () => tf.browser.fromPixels(bitmap) }, minScore),
      dispose: () => model.dispose(),
    };
  },
};
