// One thread of the detector pool (./detector-pool.ts): loads the model once, then detects on the frames the pool
// sends, one at a time — the whole frame, plus a closer look at small motion regions (./crops.ts), merged by the
// studio's per-class non-maximum suppression. Its own entry in the production build (vite.config.ts).
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { DEFAULT_DETECT_OPTIONS, type LocalDetection } from "#app/studio/local-vision/detector-types";
import { nonMaxSuppression } from "#app/studio/local-vision/non-max-suppression";
import { openBuiltInDetector } from "../built-in-detector";
import type { FrameDetector } from "../frame-detector";
import { openOnnxDetector } from "../onnx-detector";
import { cropPicture, detectionsInFrame, planCrops } from "./crops";
import type { DetectRequest, PoolModel } from "./types";

/** What the pool sends: a request to run, numbered. */
export interface ThreadJob {
  id: number;
  request: Omit<DetectRequest, "cameraId">;
}

/** What the thread answers: once loaded (or not), then one answer per job. */
export type ThreadMessage =
  | { type: "ready" }
  | { type: "load-failed"; message: string }
  | { type: "done"; id: number; detections: LocalDetection[]; detectMs: number; cpuMs: number }
  | { type: "failed"; id: number; message: string };

async function openDetector(model: PoolModel): Promise<FrameDetector> {
  if (model.kind === "built-in") return openBuiltInDetector();
  const onnx = await openOnnxDetector(model.bytes, model);
  return { labels: onnx.spec.labels, inputAspect: onnx.spec.inputWidth / onnx.spec.inputHeight, detect: onnx.detectFrame, close: onnx.close };
}

/**
 * This thread's CPU time in ms. process.cpuUsage() is the whole process's; Node 23.9+ has process.threadCpuUsage();
 * before it (Node 20), Linux's /proc/thread-self/stat counts the thread's user and system time in clock ticks (10 ms).
 * NaN where neither exists: the pool then reports wall time.
 */
function threadCpuMs(): number {
  const own = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
  if (own) {
    const { user, system } = own.call(process);
    return (user + system) / 1000;
  }
  try {
    // Fields after the command name's ")": state is field 3, utime 14 and stime 15.
    const stat = readFileSync("/proc/thread-self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

async function detect(detector: FrameDetector, { frame, minScore, regions }: ThreadJob["request"]): Promise<LocalDetection[]> {
  const candidates = await detector.detect(frame, minScore);
  for (const crop of planCrops(frame.width, frame.height, regions, detector.inputAspect)) {
    candidates.push(...detectionsInFrame(await detector.detect(cropPicture(frame, crop), minScore), crop, frame.width, frame.height));
  }
  // The studio's step after its model (detector-worker.ts): one box per object, per class.
  return nonMaxSuppression(candidates, DEFAULT_DETECT_OPTIONS.iouThreshold, DEFAULT_DETECT_OPTIONS.maxDetections);
}

async function serve(): Promise<void> {
  const port = parentPort!;
  const post = (message: ThreadMessage) => port.postMessage(message);
  let detector: FrameDetector;
  try {
    detector = await openDetector((workerData as { model: PoolModel }).model);
  } catch (error) {
    post({ type: "load-failed", message: error instanceof Error ? error.message : String(error) });
    port.close();
    return;
  }
  const run = async ({ id, request }: ThreadJob) => {
    const started = performance.now();
    const cpuStart = threadCpuMs();
    try {
      const detections = await detect(detector, request);
      const detectMs = performance.now() - started;
      const cpuMs = threadCpuMs() - cpuStart;
      post({ type: "done", id, detections, detectMs, cpuMs: Number.isNaN(cpuMs) ? detectMs : cpuMs });
    } catch (error) {
      post({ type: "failed", id, message: error instanceof Error ? error.message : String(error) });
    }
  };
  // One job at a time: the pool sends the next only after this one's answer.
  port.on("message", (job: ThreadJob) => void run(job));
  post({ type: "ready" });
}

void serve();
