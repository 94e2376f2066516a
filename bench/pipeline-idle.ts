// Issue 30's idle-camera figure: what the server's always-on pipeline costs on a camera where nothing happens (frames
// decoded from the one pull, motion on each, no detector), beside ffmpeg alone pulling and decoding the same stream
// at the same rate and size over the same seconds. Target: at most 2 % of a core above it.
//
// The camera (in its own process, so its encoders and RTSP server are not counted) plays the clip's empty room, a
// real indoor scene with real sensor noise, in a loop on its 640×360 sub-stream. In this process: the camera streams
// (LiveStreams: the pull's ffmpeg and its RTSP relay), the frame source (its decoder ffmpeg) at 5 frames/s and
// 640 px, and the motion detector on every frame. The baseline is one ffmpeg pulling the sub-stream over RTSP and
// decoding it with the frame source's own filter and output, to /dev/null.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { RawFrame } from "#server/local-vision/pipeline/types";
import { allowLoopbackCameras } from "../tests/support/ip-cameras";
import { REAL_CLIP, realDataDir } from "../tests/support/real-data";
import { ROOT, tempDir } from "../tests/support/stack";
import { appFfmpeg, appPullArgs } from "./camera-baselines";
import { machineLoad, ms, table, timeCalls, treeCpu, treeCpuBetween, verdict } from "./lib";

const SECONDS = Number(process.env.BENCH_PIPELINE_IDLE_SECONDS ?? 20);
const FPS = 5;
const WIDTH = 640;
const HEIGHT = 360;
/** The clip's room is empty for its first 5 s (its .gt.json): this much of it loops as the idle scene. */
const EMPTY_ROOM_SECONDS = 4.8;
const TARGET_PCT = 2;
const PULL_SECONDS = 10;

const pct = (cpuMs: number, seconds: number) => (cpuMs / (seconds * 1000)) * 100;
const pctText = (value: number) => `${value.toFixed(2)} %`;

export async function runPipelineIdleBenchmark(): Promise<string> {
  const heading = "### Idle camera: frames and motion, no detector";
  const data = realDataDir();
  if (!data) {
    const message = "the real test material (../shared/data/real, see its README) is not beside this checkout: the idle camera not measured";
    console.error(`pipeline: ${message}`);
    return `${heading}\n\nSkipped: ${message}.`;
  }
  const dataDir = tempDir("bench-pipeline");
  allowLoopbackCameras(dataDir);
  process.env.LOG_LEVEL ??= "silent";
  const { createLiveStreams } = await import("#server/cameras/stream/supervisor");
  const { decoderArgs, openFrameSource } = await import("#server/local-vision/pipeline/frame-source");
  const { createMotionDetector } = await import("#server/local-vision/pipeline/motion");
  const binary = await appFfmpeg(dataDir);

  const idleScene = path.join(dataDir, "empty-room.mp4");
  execFileSync(binary.path, ["-v", "error", "-i", path.join(data, REAL_CLIP), "-t", String(EMPTY_ROOM_SECONDS), "-an", "-c:v", "libx264", "-preset", "veryfast", "-y", idleScene]);
  const camera = await startCameraProcess(idleScene);
  const streams = createLiveStreams({ idleMs: 5_000 });
  const source = {
    cameraId: crypto.randomUUID(),
    userId: crypto.randomUUID(),
    viewUrl: camera.sub,
    mainUrl: null,
    snapshotUrl: null,
    credentials: { username: "admin", password: "admin" },
    codec: "h264",
  };
  // The pull alone first, as the live view or a monitor's hold costs it (the RTSP relay in Node, the copy ffmpeg):
  // what the frame source and motion add comes on top of it.
  const release = streams.hold(source);
  await sleep(3_000);
  const pullBefore = treeCpu(process.pid, "ffmpeg");
  const pullNodeBefore = process.cpuUsage();
  await sleep(PULL_SECONDS * 1000);
  const pullNode = process.cpuUsage(pullNodeBefore);
  const pullMs = treeCpuBetween(pullBefore, treeCpu(process.pid, "ffmpeg")).children + (pullNode.user + pullNode.system) / 1000;
  const frames = openFrameSource(streams, source, { fps: FPS, width: WIDTH });
  release();
  const motion = createMotionDetector();
  let seen = 0;
  let moving = 0;
  let motionMs = 0;
  const consumer = (async () => {
    for (let frame = await frames.next(); frame; frame = await frames.next()) {
      const started = performance.now();
      if (motion.update(frame).regions.length) moving += 1;
      motionMs += performance.now() - started;
      seen += 1;
    }
  })();
  // The app's own RTSP input arguments (login in the URL: no relay), then the frame decoder's: one decoding thread,
  // the same filter and output.
  const pull = await appPullArgs(binary, camera.sub.replace("rtsp://", "rtsp://admin:admin@"));
  const input = pull.slice(0, pull.indexOf("-i"));
  const decode = decoderArgs({ fps: FPS, width: WIDTH, height: HEIGHT });
  const baseline = startDevNull(binary.path, [...input, "-threads", "1", "-i", pull[pull.indexOf("-i") + 1]!, ...decode.slice(decode.indexOf("pipe:0") + 1)]);
  try {
    // Warm: both decoding, the motion background learnt.
    const warmDeadline = Date.now() + 30_000;
    while (frames.stats().decoded < 15) {
      if (Date.now() > warmDeadline) throw new Error("the frame source gave no frames in 30 s");
      await sleep(200);
    }
    await sleep(2_000);
    const self = process.pid;
    const before = treeCpu(self, "ffmpeg");
    const nodeBefore = process.cpuUsage();
    const statsBefore = frames.stats();
    const seenBefore = seen;
    const movingBefore = moving;
    const motionMsBefore = motionMs;
    await sleep(SECONDS * 1000);
    const after = treeCpu(self, "ffmpeg");
    const nodeAfter = process.cpuUsage(nodeBefore);
    const statsAfter = frames.stats();
    const baselineMs = (after.children.get(baseline.pid) ?? NaN) - (before.children.get(baseline.pid) ?? NaN);
    const decoderMs = statsAfter.decoderCpuMs - statsBefore.decoderCpuMs;
    const ffmpegMs = treeCpuBetween(before, after).children - baselineMs; // the pull's ffmpeg and the decoder
    const nodeMs = (nodeAfter.user + nodeAfter.system) / 1000;
    const pipelineMs = ffmpegMs + nodeMs;
    const decoded = statsAfter.decoded - statsBefore.decoded;
    const above = pct(pipelineMs - baselineMs, SECONDS);
    const motionPerFrame = (motionMs - motionMsBefore) / Math.max(1, seen - seenBefore);

    // Motion alone on a decoded frame of the scene, timed in a loop: the cost without the machine's other work.
    const still = await firstFrame(frames);
    const detector = createMotionDetector();
    const motionTiming = timeCalls(() => detector.update(still), { warmup: 20, minRuns: 200 });

    const rows = [
      ["Pipeline: frames + motion (Node: relay, fan-out, frame cutting, motion)", pctText(pct(nodeMs, SECONDS))],
      ["Pipeline: the pull's ffmpeg (copy) + the frame decoder ffmpeg", pctText(pct(ffmpegMs, SECONDS))],
      ["… of which the frame decoder", pctText(pct(decoderMs, SECONDS))],
      ["**Pipeline, total**", `**${pctText(pct(pipelineMs, SECONDS))}**`],
      [`… of which the pull alone (Node and its ffmpeg, measured for ${PULL_SECONDS} s before, with no frame source)`, pctText(pct(pullMs, PULL_SECONDS))],
      ["Baseline: ffmpeg alone pulling and decoding the same stream (same rate, size, filter)", pctText(pct(baselineMs, SECONDS))],
      [`**Above the baseline** (target ≤ ${TARGET_PCT} % of a core)`, `**${pctText(above)}** ${verdict(above <= TARGET_PCT)}`],
    ];
    return [
      heading,
      "",
      `One camera, ${WIDTH}×${HEIGHT} sub-stream at 15 fps of the clip's empty room (its first ${EMPTY_ROOM_SECONDS} s, looped), decoded at ${FPS} frames/s and ${WIDTH} px, motion on every frame, measured over ${SECONDS} s (${machineLoad()} at the end). CPU as a share of one core, utime + stime from /proc for the ffmpeg processes, process.cpuUsage() for this process (which runs only the camera streams, the frame source and motion: the fake camera is another process).`,
      "",
      table(["Work", "CPU (% of a core)"], rows),
      "",
      `Frames decoded: ${decoded} in ${SECONDS} s (${(decoded / SECONDS).toFixed(1)}/s), dropped ${statsAfter.dropped - statsBefore.dropped}, frames with a motion region ${moving - movingBefore} of ${seen - seenBefore} (an empty room: expected none or a few at the loop's seam). Decoder CPU per frame ${ms(decoderMs / Math.max(1, decoded))}; motion per frame ${ms(motionPerFrame)} in the pipeline, ${ms(motionTiming.median)} median (${ms(motionTiming.best)} best) timed alone on a ${WIDTH}×${HEIGHT} frame.`,
    ].join("\n");
  } finally {
    await frames.close();
    await consumer;
    await baseline.stop();
    await streams.close();
    await camera.stop();
  }
}

/** The next frame, for timing motion on the scene (the source is closed after, so any frame in it will do). */
async function firstFrame(frames: { next(): Promise<RawFrame | null> }): Promise<RawFrame> {
  const frame = await frames.next();
  if (!frame) throw new Error("the frame source closed");
  return frame;
}

/** The fake IP camera playing `video`, in a process of its own (its CPU is not the pipeline's). */
async function startCameraProcess(video: string): Promise<{ sub: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests/fakes/ip-camera/cli.ts"), "--video", video], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const sub = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve((JSON.parse(chunk.toString().split("\n")[0]!) as { sub: string }).sub));
    child.once("exit", (code) => reject(new Error(`the fake IP camera exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    sub,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** ffmpeg with its output (fd 1) to /dev/null, as the baseline. */
function startDevNull(binaryPath: string, args: string[]): { pid: number; stop(): Promise<void> } {
  const devNull = openSync("/dev/null", "w");
  const child = spawn(binaryPath, args, { stdio: ["ignore", devNull, "ignore"], env: {} });
  closeSync(devNull);
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return {
    pid: child.pid!,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await runPipelineIdleBenchmark());
  process.exit(0);
}
