// The detector pool: worker threads running the deployment's local detector (./detector-thread.ts), shared by every
// camera of the process. Each thread loads the model once. Cameras are served in turn: each may have one request
// waiting (a second gets "busy": its newer frame should replace the waiting one, not queue behind it), and a free
// thread takes the request that has waited longest, so no camera starves the others (docs/architecture.md, "The
// detector pool"; docs/decisions/0015-detector-threads.md).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { BUILT_IN_DETECTOR } from "#app/studio/local-vision/detector-types";
import type { ThreadJob, ThreadMessage } from "./detector-thread";
import type { DetectorPool, DetectRequest, DetectResult, PoolModel } from "./types";

export interface DetectorPoolOptions {
  /** Threads (config.localVision.detectorThreads: LOCAL_VISION_DETECTOR_THREADS, one fewer than the cores by default). */
  size: number;
  model: PoolModel;
}

export interface LocalDetectorPool extends DetectorPool {
  /** Resolves once every thread of the current model has loaded it; rejects when the model cannot load. */
  ready(): Promise<void>;
  /** Swaps the model (the administrator chose another): new threads load it; the old ones finish their request and exit. */
  reload(model: PoolModel): Promise<void>;
}

interface Job {
  id: number;
  request: DetectRequest;
  resolve(result: DetectResult): void;
  reject(error: Error): void;
}

/** One model's threads; a reload starts a new generation and retires the old one. */
interface Generation {
  model: PoolModel;
  ready: Promise<void>;
  /** Set when the model failed to load: every request of this generation fails with it (no thread is restarted). */
  loadError: Error | null;
}

interface Thread {
  worker: Worker;
  generation: Generation;
  loaded: boolean;
  job: Job | null;
  /** Asked to stop (reload, close): its exit is not a crash. */
  stopping: boolean;
}

/**
 * How to start a thread: the production build's own entry for it (build/server/detector-thread.js, vite.config.ts),
 * found beside this module's chunk or one folder up (the bundler may put this module in build/server/index.js or in a
 * chunk under build/server/assets/); or, running from the TypeScript sources (tests, `npm run dev`, tsx scripts), the
 * .ts file through tsx's loader, from an eval'd bootstrap: `execArgv: ["--import", "tsx"]` does not reach a worker's
 * imports on Node 20.
 */
function threadStart(): { entry: string | URL; eval: boolean } {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith(".ts")) {
    const built = [".", ".."].map((up) => path.join(path.dirname(here), up, "detector-thread.js")).find((file) => existsSync(file));
    if (!built) throw new Error(`The detector thread's entry (detector-thread.js) is not beside ${here}: rebuild (npm run build)`);
    return { entry: pathToFileURL(built), eval: false };
  }
  const thread = pathToFileURL(path.join(path.dirname(here), "detector-thread.ts")).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  return { entry: `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(thread)}, ${JSON.stringify(import.meta.url)}))`, eval: true };
}

function modelName(model: PoolModel): string {
  return model.kind === "built-in" ? BUILT_IN_DETECTOR.name : model.name;
}

export function createDetectorPool({ size, model }: DetectorPoolOptions): LocalDetectorPool {
  const start = threadStart();
  const threads = new Set<Thread>();
  /** Waiting requests, oldest first; at most one per camera. */
  const waiting: Job[] = [];
  let nextId = 1;
  let closed = false;
  let current = startGeneration(model);

  function startGeneration(poolModel: PoolModel): Generation {
    const generation: Generation = { model: poolModel, ready: Promise.resolve(), loadError: null };
    generation.ready = Promise.all(Array.from({ length: size }, () => startThread(generation))).then(() => undefined);
    // A model that cannot load is reported through the requests (and ready()); it is no unhandled rejection.
    generation.ready.catch(() => undefined);
    return generation;
  }

  function startThread(generation: Generation): Promise<void> {
    // Each thread gets its own copy of the model's bytes, moved to it rather than copied again.
    const model = generation.model.kind === "onnx" ? { ...generation.model, bytes: generation.model.bytes.slice() } : generation.model;
    const worker = new Worker(start.entry, { eval: start.eval, workerData: { model }, transferList: model.kind === "onnx" ? [model.bytes.buffer] : [] });
    const thread: Thread = { worker, generation, loaded: false, job: null, stopping: false };
    threads.add(thread);
    let lastError: Error | null = null;
    return new Promise<void>((resolve, reject) => {
      worker.on("message", (message: ThreadMessage) => {
        if (message.type === "ready") {
          thread.loaded = true;
          resolve();
          dispatch();
        } else if (message.type === "load-failed") {
          generation.loadError ??= new Error(`The detector "${modelName(generation.model)}" did not load: ${message.message}`);
          reject(generation.loadError);
          failWaiting(generation);
        } else finish(thread, message);
      });
      worker.on("error", (error) => (lastError = error));
      worker.on("exit", (code) => {
        threads.delete(thread);
        const job = thread.job;
        thread.job = null;
        if (thread.stopping || closed) return;
        const why = lastError?.message ?? `exit code ${code}`;
        job?.reject(new Error(`The detector thread stopped while detecting (${why})`));
        if (!thread.loaded) {
          // Died while loading: the model is the problem, and a new thread would die the same way.
          generation.loadError ??= new Error(`The detector "${modelName(generation.model)}" did not load: ${why}`);
          reject(generation.loadError);
          failWaiting(generation);
          return;
        }
        if (generation === current) void startThread(generation).catch(() => undefined);
        dispatch();
      });
    });
  }

  function finish(thread: Thread, message: Extract<ThreadMessage, { id: number }>) {
    const job = thread.job;
    if (!job || job.id !== message.id) return;
    thread.job = null;
    if (message.type === "done") job.resolve({ detections: message.detections, detectMs: message.detectMs, cpuMs: message.cpuMs });
    else job.reject(new Error(message.message));
    if (thread.generation !== current) stop(thread);
    dispatch();
  }

  function failWaiting(generation: Generation) {
    if (generation !== current || !generation.loadError) return;
    for (const job of waiting.splice(0)) job.reject(generation.loadError);
  }

  /** Free threads of the current model take the requests that have waited longest. */
  function dispatch() {
    for (const thread of threads) {
      if (waiting.length === 0) return;
      if (!thread.loaded || thread.job || thread.stopping || thread.generation !== current) continue;
      const job = waiting.shift()!;
      thread.job = job;
      const { cameraId: _camera, frame, ...rest } = job.request;
      // postMessage copies a typed array's whole buffer: a frame that is a view into a larger one is cut out first.
      const rgb = frame.rgb.byteLength === frame.rgb.buffer.byteLength ? frame.rgb : frame.rgb.slice();
      thread.worker.postMessage({ id: job.id, request: { ...rest, frame: { width: frame.width, height: frame.height, rgb } } } satisfies ThreadJob);
    }
  }

  function stop(thread: Thread) {
    thread.stopping = true;
    void thread.worker.terminate();
  }

  return {
    detect(request) {
      if (closed) return Promise.reject(new Error("The detector pool is closed"));
      if (current.loadError) return Promise.reject(current.loadError);
      if (waiting.some((job) => job.request.cameraId === request.cameraId)) return Promise.resolve("busy");
      return new Promise<DetectResult>((resolve, reject) => {
        waiting.push({ id: nextId++, request, resolve, reject });
        dispatch();
      });
    },
    labels: () => (current.model.kind === "built-in" ? BUILT_IN_DETECTOR.labels : current.model.labels),
    stats: () => ({ workers: [...threads].filter((thread) => thread.generation === current).length, waiting: waiting.length, model: modelName(current.model) }),
    ready: () => current.ready,
    async reload(poolModel) {
      if (closed) throw new Error("The detector pool is closed");
      current = startGeneration(poolModel);
      // Idle threads of the old model go now; busy ones when their request is answered (finish()).
      for (const thread of threads) if (thread.generation !== current && !thread.job) stop(thread);
      await current.ready;
    },
    async close() {
      closed = true;
      const error = new Error("The detector pool is closed");
      for (const job of waiting.splice(0)) job.reject(error);
      for (const thread of threads) {
        thread.job?.reject(error);
        thread.job = null;
      }
      await Promise.all([...threads].map((thread) => thread.worker.terminate()));
    },
  };
}
