// The server's detector (issue 30): CPU per frame of the built-in CenterNet in the detector pool's thread, on 640 px
// frames of the real clip (../shared/data/real, one frame a second), beside the same model run bare in this process
// (tfjs on WASM, no thread, no copy: the pool's own cost is the difference) and in the studio's detector worker in
// headless Chromium on WASM, the clip played as its webcam at 640×360 (bench/local-vision-detector.ts's measurement).
// Then the pool's throughput with its default threads and four cameras asking at once.
import { execFileSync } from "node:child_process";
import { existsSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_DETECT_OPTIONS } from "#app/studio/local-vision/detector-types";
import { nonMaxSuppression } from "#app/studio/local-vision/non-max-suppression";
import { defaultDetectorThreads } from "#server/config";
import { openBuiltInDetector } from "#server/local-detector/built-in-detector";
import type { RgbPicture } from "#server/local-detector/frame-detector";
import { createDetectorPool } from "#server/local-detector/pool/detector-pool";
import { REAL_CLIP, realDataDir } from "../tests/support/real-data";
import { machineLoad, ms, table } from "./lib";
import { measureBrowserDetector } from "./local-vision-detector";

const WIDTH = 640;
const HEIGHT = 360; // the clip is 768×432: 16:9
const FRAMES = 40;
const CAMERAS = 4;

/** One frame a second of the clip's first FRAMES seconds, as the frame source decodes them: packed RGB at 640 px. */
function clipFrames(video: string): RgbPicture[] {
  const bytes = execFileSync(
    "ffmpeg",
    ["-v", "error", "-i", video, "-t", String(FRAMES), "-vf", `fps=1,scale=${WIDTH}:${HEIGHT}`, "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    {
      maxBuffer: FRAMES * WIDTH * HEIGHT * 3 + 1,
    },
  );
  const size = WIDTH * HEIGHT * 3;
  return Array.from({ length: Math.floor(bytes.length / size) }, (_, i) => ({ width: WIDTH, height: HEIGHT, rgb: new Uint8Array(bytes.subarray(i * size, (i + 1) * size)) }));
}

/** The clip's first FRAMES seconds at 640×360 as a Y4M file, for Chromium's fake webcam (written once per machine). */
function clipY4m(video: string): string {
  const file = path.join(os.tmpdir(), `framewise-pipeline-clip-${WIDTH}x${HEIGHT}.y4m`);
  if (existsSync(file)) return file;
  const partial = `${file}.${process.pid}.partial.y4m`;
  execFileSync("ffmpeg", ["-v", "error", "-i", video, "-t", String(FRAMES), "-vf", `scale=${WIDTH}:${HEIGHT},format=yuv420p`, "-f", "yuv4mpegpipe", partial]);
  renameSync(partial, file);
  return file;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const people = (labels: string[][]) => labels.reduce((sum, frame) => sum + frame.filter((label) => label === "person").length, 0);

interface Run {
  cpuMs: number[];
  wallMs: number[];
  labels: string[][];
}

/** The model bare, in this process: process.cpuUsage() is this thread's work while nothing else runs. */
async function bare(frames: readonly RgbPicture[]): Promise<Run> {
  const detector = await openBuiltInDetector();
  const run: Run = { cpuMs: [], wallMs: [], labels: [] };
  try {
    for (const frame of frames) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const found = nonMaxSuppression(await detector.detect(frame, DEFAULT_DETECT_OPTIONS.minScore), DEFAULT_DETECT_OPTIONS.iouThreshold, DEFAULT_DETECT_OPTIONS.maxDetections);
      run.wallMs.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      run.cpuMs.push((used.user + used.system) / 1000);
      run.labels.push(found.map((detection) => detection.label));
    }
  } finally {
    await detector.close();
  }
  return run;
}

/** The same frames through the pool, one thread, one camera, one after another: the thread's own CPU and wall time. */
async function pooled(frames: readonly RgbPicture[]): Promise<Run> {
  const pool = createDetectorPool({ size: 1, model: { kind: "built-in" } });
  const run: Run = { cpuMs: [], wallMs: [], labels: [] };
  try {
    await pool.ready();
    for (const frame of frames) {
      const result = await pool.detect({ cameraId: "bench", frame, minScore: DEFAULT_DETECT_OPTIONS.minScore, regions: [] });
      if (result === "busy") throw new Error("one camera, one request at a time: never busy");
      run.cpuMs.push(result.cpuMs);
      run.wallMs.push(result.detectMs);
      run.labels.push(result.detections.map((detection) => detection.label));
    }
  } finally {
    await pool.close();
  }
  return run;
}

/** Frames per second the pool answers with its default threads while CAMERAS cameras each keep one request going. */
async function throughput(frames: readonly RgbPicture[], threads: number): Promise<number> {
  const pool = createDetectorPool({ size: threads, model: { kind: "built-in" } });
  try {
    await pool.ready();
    let next = 0;
    const started = performance.now();
    const camera = async (cameraId: string) => {
      while (next < frames.length) {
        const frame = frames[next++]!;
        await pool.detect({ cameraId, frame, minScore: DEFAULT_DETECT_OPTIONS.minScore, regions: [] });
      }
    };
    await Promise.all(Array.from({ length: CAMERAS }, (_, i) => camera(`camera-${i}`)));
    return (frames.length * 1000) / (performance.now() - started);
  } finally {
    await pool.close();
  }
}

export async function runPipelineDetectorBenchmarks(): Promise<string> {
  const heading = "### Detector CPU per frame in Node (the detector pool)";
  const data = realDataDir();
  if (!data) return `${heading}\n\nSkipped: the real test material (../shared/data/real) is not beside this checkout.`;
  const frames = clipFrames(path.join(data, REAL_CLIP));
  const baseline = await bare(frames);
  const pool = await pooled(frames);
  const browser = await measureBrowserDetector(clipY4m(path.join(data, REAL_CLIP)), "wasm");
  const threads = defaultDetectorThreads();
  const framesPerSecond = await throughput(frames, threads);
  const row = (name: string, run: Run) => [name, `**${ms(median(run.cpuMs))}**`, ms(median(run.wallMs)), (1000 / median(run.cpuMs)).toFixed(1), people(run.labels)];
  return [
    heading,
    `Built-in CenterNet (512² input, tfjs 4.22.0 on WASM, SIMD, one thread) on ${frames.length} frames of ${REAL_CLIP} at ${WIDTH}×${HEIGHT}, one a second; whole frames, no motion regions. ${machineLoad()}.`,
    table(
      ["where", "CPU per frame (median)", "wall per frame (median)", "frames/s on a free core", "people found"],
      [
        row("bare model in this process (baseline)", baseline),
        row("detector pool thread", pool),
        browser.workerCpuMs
          ? [
              "studio's detector worker, Chromium, WASM (mean)",
              `**${ms(browser.workerCpuMs)}**`,
              "—",
              (1000 / browser.workerCpuMs).toFixed(1),
              `${browser.people} over ${browser.frames} frames`,
            ]
          : ["studio's detector worker, Chromium, WASM", `not measured (${browser.failure ?? "no trace"})`, "—", "—", "—"],
      ],
    ),
    `The pool with its default ${threads} thread${threads === 1 ? "" : "s"} (LOCAL_VISION_DETECTOR_THREADS) and ${CAMERAS} cameras asking at once: **${framesPerSecond.toFixed(1)} frames/s** in all. ` +
      "The thread's CPU is its own (process.threadCpuUsage, or /proc/thread-self/stat in 10 ms ticks on Node 20); the baseline's is the process's while only it runs.",
  ].join("\n\n");
}
