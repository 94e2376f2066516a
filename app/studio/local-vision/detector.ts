// The page's handle on the local detector: the worker (and its ~2 MB of tfjs, ~4 MB of weights) starts on
// the first load(), frames are transferred to it, and nothing runs inference on the page's thread.
import * as Comlink from "comlink";
import type { DetectOptions, DetectorBackend, DetectorWorkerApi, LoadOptions, LocalDetection } from "./detector-types";

export type { DetectorBackend, LocalDetection } from "./detector-types";

export interface LocalDetector {
  /** Starts the worker and loads the model once (later calls share it); `onProgress` gets 0..1. */
  load(onProgress?: (fraction: number) => void, options?: LoadOptions): Promise<{ backend: DetectorBackend }>;
  /** Transfers `frame` to the worker (the caller's copy is closed); resolves with its detections. */
  detect(frame: ImageBitmap | VideoFrame, options?: DetectOptions): Promise<LocalDetection[]>;
  /** Stops the worker; pending calls never settle. A later load() starts a new one. */
  dispose(): void;
}

function startWorker(): Worker {
  return new Worker(new URL("./detector-worker.ts", import.meta.url), { type: "module", name: "local-detector" });
}

export function createLocalDetector(start: () => Worker = startWorker): LocalDetector {
  let worker: Worker | undefined;
  let remote: Comlink.Remote<DetectorWorkerApi> | undefined;
  const connect = (): Comlink.Remote<DetectorWorkerApi> => {
    if (!remote) {
      worker = start();
      remote = Comlink.wrap<DetectorWorkerApi>(worker);
    }
    return remote;
  };
  return {
    load: (onProgress = () => {}, options) => connect().load(Comlink.proxy(onProgress), options),
    detect(frame, options) {
      if (!remote) return Promise.reject(new Error("The detector is not loaded"));
      return remote.detect(Comlink.transfer(frame, [frame]), options);
    },
    dispose() {
      remote?.[Comlink.releaseProxy]();
      worker?.terminate();
      remote = undefined;
      worker = undefined;
    },
  };
}
