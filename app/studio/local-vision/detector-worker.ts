// The local detector in a Web Worker, so inference never runs on the page's thread. The built-in model is one file of
// ./detectors/ (CenterNet, MobileNetV3, from @vladmandic/human's package) on tfjs, the copy bundled in human's ESM
// build (WebGPU, WebGL, WASM and CPU backends); the weights and the WASM binaries are hashed assets of our own
// origin, fetched by this worker only (human's own loader and tfjs's defaults would go to a CDN). An administrator's
// ONNX model runs on onnxruntime-web instead (./detectors/onnx.ts), loaded only then.
import * as Comlink from "comlink";
import { Human } from "@vladmandic/human";
import wasmUrl from "@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url";
import wasmSimdUrl from "@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url";
import wasmThreadedSimdUrl from "@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url";
import {
  DEFAULT_DETECT_OPTIONS,
  DETECTOR_BACKENDS,
  type DetectOptions,
  type DetectorBackend,
  type DetectorWorkerApi,
  type LoadOptions,
  type LocalDetection,
} from "./detector-types";
import { centerNet } from "./detectors/centernet";
import { loadOnnxDetector } from "./detectors/onnx";
import type { DetectorModel, LoadedDetector } from "./detectors/detector-model";
import { nonMaxSuppression } from "./non-max-suppression";
import type { Tfjs } from "./tfjs-types";

/** The built-in model: another tfjs model is a new file in ./detectors/ named here. */
const BUILT_IN: DetectorModel = centerNet;

let tf: Tfjs | undefined;
let model: LoadedDetector | undefined;
let loading: Promise<{ backend: DetectorBackend }> | undefined;

/** Human's tfjs with nothing of human's own loaded: its constructor only sets up the environment. */
function tfjs(): Tfjs {
  tf ??= new Human({ backend: "", modelBasePath: "", wasmPath: "", debug: false }).tf as Tfjs;
  return tf;
}

async function pickBackend(tf: Tfjs, { backends = DETECTOR_BACKENDS, allowSoftware = false }: LoadOptions): Promise<DetectorBackend> {
  tf.setWasmPaths({
    "tfjs-backend-wasm.wasm": new URL(wasmUrl, self.location.href).href,
    "tfjs-backend-wasm-simd.wasm": new URL(wasmSimdUrl, self.location.href).href,
    "tfjs-backend-wasm-threaded-simd.wasm": new URL(wasmThreadedSimdUrl, self.location.href).href,
  });
  for (const backend of backends) {
    if (backend === "webgpu" && !allowSoftware && !(await hardwareWebGpu())) continue;
    if (backend === "webgl" && !allowSoftware && !hardwareWebGl()) continue;
    try {
      // setBackend answers false (or throws) when the backend cannot start here, e.g. WebGL without a context.
      if (await tf.setBackend(backend)) {
        await tf.ready();
        return backend;
      }
    } catch {
      // try the next one
    }
  }
  throw new Error("No tfjs backend works in this browser");
}

interface GpuAdapterInfo {
  vendor?: string;
  architecture?: string;
  description?: string;
  isFallbackAdapter?: boolean;
}

/** Whether WebGPU here has a hardware adapter: Chromium's fallback adapter is SwiftShader (0.06 frames/s measured). */
async function hardwareWebGpu(): Promise<boolean> {
  // Typed here: TypeScript's DOM library does not have every browser's GPUAdapter fields (info, isFallbackAdapter).
  const gpu = (navigator as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  if (!gpu) return false;
  try {
    const adapter = (await gpu.requestAdapter()) as { info?: GpuAdapterInfo; isFallbackAdapter?: boolean } | null;
    if (!adapter || adapter.isFallbackAdapter || adapter.info?.isFallbackAdapter) return false;
    const { vendor = "", architecture = "", description = "" } = adapter.info ?? {};
    return !SOFTWARE_RENDERER.test(`${vendor} ${architecture} ${description}`);
  } catch {
    return false;
  }
}

const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software/i;

/**
 * Whether WebGL here runs on a GPU. A software rasteriser (SwiftShader in headless Chromium or on a
 * blocklisted GPU, llvmpipe) runs CenterNet ~40× slower than the WASM backend (0.16 against 6.9 frames/s
 * measured), so it does not count as "the fastest backend available".
 */
function hardwareWebGl(): boolean {
  if (typeof OffscreenCanvas === "undefined") return false;
  const gl = new OffscreenCanvas(1, 1).getContext("webgl2", { failIfMajorPerformanceCaveat: true });
  if (!gl) return false;
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  const renderer = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER));
  gl.getExtension("WEBGL_lose_context")?.loseContext();
  return !SOFTWARE_RENDERER.test(renderer);
}

async function detect(frame: ImageBitmap | VideoFrame, options: DetectOptions = {}): Promise<LocalDetection[]> {
  if (!model) throw new Error("The detector is not loaded");
  const { minScore, iouThreshold, maxDetections } = { ...DEFAULT_DETECT_OPTIONS, ...options };
  const bitmap = frame instanceof ImageBitmap ? frame : await createImageBitmap(frame);
  if (bitmap !== frame) frame.close();
  let candidates: LocalDetection[];
  try {
    candidates = await model.detect(bitmap, minScore);
  } finally {
    bitmap.close();
  }
  return nonMaxSuppression(candidates, iouThreshold, maxDetections);
}

const api: DetectorWorkerApi = {
  load(onProgress, options = {}) {
    loading ??= (async () => {
      if (options.model?.kind === "onnx") {
        model = await loadOnnxDetector(options.model, onProgress);
        return { backend: "wasm" as const };
      }
      const tf = tfjs();
      const backend = await pickBackend(tf, options);
      model = await BUILT_IN.load(tf, onProgress);
      return { backend };
    })().catch((error: unknown) => {
      loading = undefined; // a later load may retry
      throw error;
    });
    return loading;
  },
  detect,
  dispose() {
    model?.dispose();
    model = undefined;
    loading = undefined;
  },
};

Comlink.expose(api);
