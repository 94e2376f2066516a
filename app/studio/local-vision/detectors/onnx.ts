// An administrator's ONNX detector in the detector's worker, through onnxruntime-web on WebAssembly (SIMD, one thread:
// the studio is not cross-origin isolated, and on 2 cores threads measured slower, docs/architecture.md). Its
// runtime is loaded only when such a model is the deployment's detector, from this origin's hashed assets. The model
// is read as the server checked it on upload (./onnx-layout.ts): letterboxed into its input, outputs decoded by format.
import wasmUrl from "onnxruntime-web/ort-wasm-simd-threaded.wasm?url";
import type { OnnxDetectorChoice } from "../detector-types";
import { letterbox } from "../letterbox";
import type { LoadedDetector } from "./detector-model";
import { fetchWithProgress } from "./fetch-progress";
import { decodeOnnxOutputs, describeOnnxDetector, inputFromPixels, type TensorInfo, type TensorValue } from "./onnx-layout";

/** Mid grey around a letterboxed frame, as YOLO trains and as the server pads (server/local-detector/onnx-detector.ts). */
const PAD_COLOUR = "rgb(114, 114, 114)";

export async function loadOnnxDetector(choice: OnnxDetectorChoice, onProgress: (fraction: number) => void): Promise<LoadedDetector> {
  const ort = await import("onnxruntime-web/wasm");
  ort.env.wasm.wasmPaths = { wasm: new URL(wasmUrl, self.location.href).href };
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false; // already off the page's thread
  const bytes = await fetchWithProgress(choice.modelUrl, choice.bytes, onProgress);
  const session = await ort.InferenceSession.create(new Uint8Array(bytes), { executionProviders: ["wasm"], graphOptimizationLevel: "all" });
  const inputs: TensorInfo[] = session.inputMetadata.map((value) =>
    value.isTensor ? { name: value.name, shape: value.shape, type: value.type } : { name: value.name, shape: [], type: "a non-tensor value" },
  );
  const spec = describeOnnxDetector(choice.format, choice.labels, choice.pixelScaling, inputs);
  const canvas = new OffscreenCanvas(spec.inputWidth, spec.inputHeight);
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) throw new Error("This browser cannot draw frames for the detector");
  const dims = spec.channelsLast ? [1, spec.inputHeight, spec.inputWidth, 3] : [1, 3, spec.inputHeight, spec.inputWidth];

  const run = async (bitmap: ImageBitmap | null, minScore: number) => {
    const fit = letterbox(bitmap?.width ?? spec.inputWidth, bitmap?.height ?? spec.inputHeight, spec.inputWidth, spec.inputHeight);
    context.fillStyle = PAD_COLOUR;
    context.fillRect(0, 0, spec.inputWidth, spec.inputHeight);
    if (bitmap) context.drawImage(bitmap, fit.left, fit.top, fit.width, fit.height);
    const pixels = context.getImageData(0, 0, spec.inputWidth, spec.inputHeight).data;
    const answer = await session.run({ [spec.inputName]: new ort.Tensor("float32", inputFromPixels(spec, pixels), dims) });
    const outputs: Record<string, TensorValue> = {};
    for (const [name, value] of Object.entries(answer)) {
      outputs[name] = { dims: value.dims, data: value.data as Float32Array };
      value.dispose();
    }
    return decodeOnnxOutputs(spec, outputs, fit, minScore);
  };
  // The first run compiles and allocates: pay it here, not on the first frame (and find a model that cannot answer).
  await run(null, 1);
  onProgress(1);
  return {
    detect: (bitmap, minScore) => run(bitmap, minScore),
    dispose: () => void session.release(),
  };
}
