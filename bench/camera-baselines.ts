// The yardsticks of the cameras benchmark: ffmpeg alone doing what the app does with a camera (the same binary
// and the app's own pull arguments from server/cameras/stream/pull-args.ts), so each figure shows what the app adds.
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import type { FfmpegBinary } from "#server/cameras/stream/ffmpeg-binary";
import { Fmp4Splitter } from "#server/cameras/stream/fmp4-splitter";
import { readCounter } from "../tests/fakes/ip-camera/counter";
import { fragmentSamples } from "./camera-viewers";

/** The app's ffmpeg, found the way the app finds it (FFMPEG_PATH, else PATH, else the npm build). */
export async function appFfmpeg(dataDir: string): Promise<FfmpegBinary> {
  const { resolveFfmpeg } = await import("#server/cameras/stream/ffmpeg-binary");
  const found = await resolveFfmpeg({ ffmpegPath: process.env.FFMPEG_PATH, searchPath: process.env.PATH, dataDir });
  if (!found.ok) throw new Error(found.reason);
  return found.binary;
}

/** The app's argument list for a copy-mux pull of `url` (credentials in the URL, as the supervisor passes them). */
export async function appPullArgs(binary: FfmpegBinary, url: string): Promise<string[]> {
  const { buildPullArgs } = await import("#server/cameras/stream/pull-args");
  return buildPullArgs(binary, { url, video: { mode: "copy" }, fragmentEveryFrame: true }); // as camera-stream.ts calls it
}

/** The app's argument list for a snapshot of `url`: one decoded frame as a JPEG on stdout (server/cameras/stream/snapshot.ts). */
export async function appSnapshotArgs(binary: FfmpegBinary, url: string): Promise<string[]> {
  const { buildPullArgs } = await import("#server/cameras/stream/pull-args");
  return buildPullArgs(binary, { url, output: "jpeg" });
}

/** The input half of the app's arguments (everything before the output's `-map`), for ffmpeg-alone variants. */
const inputArgs = (pullArgs: string[]) => pullArgs.slice(0, pullArgs.indexOf("-map"));

export interface Running {
  pid: number;
  stop(): Promise<void>;
}

function stopper(child: ReturnType<typeof spawn>): () => Promise<void> {
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end(); // an ffmpeg blocked reading its stdin sees the end; SIGTERM alone waits for the read
      child.kill("SIGTERM");
      const kill = setTimeout(() => child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(kill);
    }
    await exited;
  };
}

/** ffmpeg alone running the app's exact copy-mux pull, its fMP4 written to /dev/null: the CPU baseline. */
export function startFfmpegPull(binary: FfmpegBinary, pullArgs: string[]): Running {
  const devNull = openSync("/dev/null", "w");
  const child = spawn(binary.path, pullArgs, { stdio: ["ignore", devNull, "ignore"], env: {} });
  closeSync(devNull);
  return { pid: child.pid!, stop: stopper(child) };
}

/** A counter-reading decoder: `onFrame(counter, at)` per decoded frame; `write` feeds its stdin when it reads a pipe. */
export interface CounterDecoder extends Running {
  write(chunk: Buffer): void;
}

/**
 * ffmpeg decoding `input` (input arguments) with the top 16 rows of each frame (where the fake camera burns its
 * frame counter) written raw to a pipe: `onFrame(counter, at)` for every frame, `at` = Date.now() when its last
 * byte arrived. One decoding thread: frame threading would hold each frame back by a frame per extra thread.
 */
function startCounterDecoder(binary: FfmpegBinary, input: string[], width: number, onFrame: (counter: number, at: number) => void): CounterDecoder {
  const rows = 16;
  const args = [...input, "-map", "0:v:0", "-an", "-threads", "1", "-vf", `crop=${width}:${rows}:0:0`, "-pix_fmt", "rgb24", "-f", "rawvideo", "pipe:1"];
  const child = spawn(binary.path, args, { stdio: ["pipe", "pipe", "ignore"], env: {} });
  child.stdin!.on("error", () => {}); // stopped while a write was pending
  const frameBytes = width * rows * 3;
  let pending: Buffer = Buffer.alloc(0);
  child.stdout!.on("data", (chunk: Buffer) => {
    const at = Date.now();
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= frameBytes) {
      onFrame(readCounter(pending.subarray(0, frameBytes), width, 3), at);
      pending = pending.subarray(frameBytes);
    }
  });
  return { pid: child.pid!, stop: stopper(child), write: (chunk) => void child.stdin!.write(chunk) };
}

/** ffmpeg alone decoding the app's pull of the camera: about the earliest a decoded frame can be had from it at all. */
export function startFfmpegDecode(binary: FfmpegBinary, pullArgs: string[], width: number, onFrame: (counter: number, at: number) => void): Running {
  return startCounterDecoder(binary, inputArgs(pullArgs), width, onFrame);
}

/** ffmpeg decoding the fMP4 a live WebSocket viewer receives (written to its stdin): the app's server path alone, no player. */
export function startFmp4Decode(binary: FfmpegBinary, width: number, onFrame: (counter: number, at: number) => void): CounterDecoder {
  return startCounterDecoder(binary, ["-probesize", "32768", "-analyzeduration", "0", "-fflags", "nobuffer", "-f", "mp4", "-i", "pipe:0"], width, onFrame);
}

/**
 * ffmpeg alone running the app's pull with its fMP4 cut into fragments here: `onFragment(at, frames)` per fragment,
 * the stall baseline (what a viewer reading the camera straight through ffmpeg would receive, and when).
 */
export function startFfmpegFragments(binary: FfmpegBinary, pullArgs: string[], onFragment: (at: number, frames: number) => void): Running {
  const child = spawn(binary.path, pullArgs, { stdio: ["ignore", "pipe", "ignore"], env: {} });
  const splitter = new Fmp4Splitter();
  child.stdout!.on("data", (chunk: Buffer) => {
    const at = Date.now();
    for (const segment of splitter.push(chunk)) if (segment.kind === "fragment") onFragment(at, fragmentSamples(segment.data));
  });
  return { pid: child.pid!, stop: stopper(child) };
}

/** ffmpeg alone, started cold, with the app's snapshot arguments until it has the JPEG: the cold-snapshot baseline (ms, spawn to exit). */
export async function ffmpegGrabJpegMs(binary: FfmpegBinary, snapshotArgs: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(binary.path, snapshotArgs, { stdio: ["ignore", "pipe", "ignore"], env: {} });
  let bytes = 0;
  child.stdout!.on("data", (chunk: Buffer) => (bytes += chunk.length));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  if (code !== 0 || bytes === 0) throw new Error(`ffmpeg alone could not grab a frame (exit ${code}, ${bytes} bytes)`);
  return performance.now() - started;
}
