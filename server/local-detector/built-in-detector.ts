// The built-in detector (CenterNet on COCO, docs/decisions/0005-local-detector.md) in Node, for the server's detector
// threads: tfjs's own packages on the WebAssembly backend (SIMD, one thread: the pool's threads are the parallelism),
// the model files from @vladmandic/human's package, and the studio's code for a frame (centernet-run.ts), so the
// server sees what the studio sees. Human's bundled tfjs does not start in Node (docs/decisions/0015-detector-threads.md).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import * as tf from "@tensorflow/tfjs-core";
import { loadGraphModel } from "@tensorflow/tfjs-converter";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { COCO_LABELS } from "#app/studio/local-vision/coco-labels";
import { detectWithCenterNet, warmUpCenterNet, type CenterNetOps } from "#app/studio/local-vision/detectors/centernet-run";
import type { ModelJson } from "#app/studio/local-vision/model-manifest";
import type { GraphModel } from "#app/studio/local-vision/tfjs-types";
import type { FrameDetector } from "./frame-detector";

const require = createRequire(import.meta.url);

/** Where npm put human's model files and tfjs's .wasm binaries (found as app/studio/local-vision/vite-alias.ts does). */
function packageFiles() {
  return {
    models: path.join(path.dirname(path.dirname(require.resolve("@vladmandic/human"))), "models"),
    wasm: `${path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm"))}/`,
  };
}

/** Loads tfjs's WASM backend and the model, and runs it once (the first run allocates). One per thread. */
export async function openBuiltInDetector(): Promise<FrameDetector> {
  const files = packageFiles();
  setWasmPaths(files.wasm);
  if (!(await tf.setBackend("wasm"))) throw new Error("tfjs's WebAssembly backend does not start here");
  await tf.ready();
  const manifest = JSON.parse(await readFile(path.join(files.models, "centernet.json"), "utf8")) as ModelJson;
  const weights = await readFile(path.join(files.models, "centernet.bin"));
  const { weightsManifest, ...artifacts } = manifest;
  const graph = await loadGraphModel(
    tf.io.fromMemory({
      ...artifacts,
      weightSpecs: weightsManifest.flatMap((group) => group.weights) as tf.io.WeightsManifestEntry[],
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
    }),
  );
  // tfjs's real types against the studio's narrow ones (tfjs-types.ts): the same functions, typed more loosely there.
  const ops = tf as unknown as CenterNetOps;
  const model = graph as unknown as GraphModel;
  await warmUpCenterNet(ops, model);
  return {
    labels: COCO_LABELS,
    inputAspect: 1,
    detect: (frame, minScore) =>
      detectWithCenterNet(ops, model, { width: frame.width, height: frame.height, pixels: () => tf.tensor3d(frame.rgb, [frame.height, frame.width, 3], "int32") }, minScore),
    close: async () => graph.dispose(),
  };
}
