// The local COCO detector (CenterNet, MobileNetV3, from @vladmandic/human's package) in a Web Worker, so
// inference never runs on the page's thread. tfjs is the copy bundled in human's ESM build (WebGPU,
// WebGL, WASM and CPU backends); the weights and the WASM binaries are hashed assets of our own origin,
// fetched by this worker only (human's own loader and tfjs's defaults would go to a CDN).
import * as Comlink from "comlink";
import { Human } from "@vladmandic/human";
import modelBinUrl from "@vladmandic/human/models/centernet.bin?url";
import modelJsonUrl from "@vladmandic/human/models/centernet.json?url";
import wasmUrl from "@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url";
import wasmSimdUrl from "@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url";
import wasmThreadedSimdUrl from "@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url";
import { COCO_LABELS } from "./coco-labels";
import { DETECTOR_BACKENDS, type DetectOptions, type DetectorBackend, type DetectorWorkerApi, type LoadOptions, type LocalDetection } from "./detector-types";
import { type ModelJson, weightBytes } from "./model-manifest";
import { nonMaxSuppression } from "./non-max-suppression";
import type { GraphModel, Tensor, Tfjs } from "./tfjs-types";

/** The model's square input; its `detections` output is in these pixels. */
const INPUT_SIZE = 512;
const OUTPUT = "tower_0/detections";

let tf: Tfjs | undefined;
let model: GraphModel | undefined;
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

/** The model's own files, hashed assets of this origin: not the API, so not through app/lib/api. */
function fetchAsset(url: string): Promise<Response> {
  // eslint-disable-next-line no-restricted-globals -- a static asset, not an API call
  return fetch(url);
}

/** `expectedBytes` stands in for Content-Length, which a compressed answer (our server gzips assets) lacks. */
async function fetchWithProgress(url: string, expectedBytes: number, onProgress: (fraction: number) => void): Promise<ArrayBuffer> {
  const response = await fetchAsset(url);
  if (!response.ok || !response.body) throw new Error(`Could not load the detector model (${response.status})`);
  const encoded = response.headers.get("content-encoding");
  const total = (!encoded || encoded === "identity" ? Number(response.headers.get("content-length")) : 0) || expectedBytes;
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    if (total) onProgress(Math.min(received / total, 0.99)); // 1 once the model is ready
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes.buffer;
}

async function loadModel(tf: Tfjs, onProgress: (fraction: number) => void): Promise<GraphModel> {
  const manifest = (await (await fetchAsset(modelJsonUrl)).json()) as ModelJson;
  const weightData = await fetchWithProgress(modelBinUrl, weightBytes(manifest), onProgress);
  const { weightsManifest, ...artifacts } = manifest;
  const loaded = await tf.loadGraphModel(tf.io.fromMemory({ ...artifacts, weightSpecs: weightsManifest.flatMap((group) => group.weights), weightData }));
  // The first run compiles the backend's kernels (shaders on WebGL/WebGPU): pay it here, not on the first frame.
  const warmUp = tf.zeros([1, INPUT_SIZE, INPUT_SIZE, 3]);
  const output = loaded.execute(warmUp, OUTPUT);
  await output.data();
  tf.dispose([warmUp, output]);
  onProgress(1);
  return loaded;
}

async function detect(frame: ImageBitmap | VideoFrame, options: DetectOptions = {}): Promise<LocalDetection[]> {
  if (!tf || !model) throw new Error("The detector is not loaded");
  const { minScore = 0.3, iouThreshold = 0.5, maxDetections = 50 } = options;
  const bitmap = frame instanceof ImageBitmap ? frame : await createImageBitmap(frame);
  if (bitmap !== frame) frame.close();
  const loadedModel = model;
  const input = tf.tidy(() => {
    const pixels = tf!.browser.fromPixels(bitmap);
    return tf!.expandDims(tf!.cast(tf!.image.resizeBilinear(pixels, [INPUT_SIZE, INPUT_SIZE]), "float32"), 0);
  });
  bitmap.close();
  const output: Tensor = loadedModel.execute(input, OUTPUT);
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
  return nonMaxSuppression(candidates, iouThreshold, maxDetections);
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}

const api: DetectorWorkerApi = {
  load(onProgress, options = {}) {
    loading ??= (async () => {
      const tf = tfjs();
      const backend = await pickBackend(tf, options);
      model = await loadModel(tf, onProgress);
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
