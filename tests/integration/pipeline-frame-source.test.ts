// The local-vision frame source against the real camera streams (LiveStreams), the real ffmpeg and the fake IP camera
// on loopback: raw frames at the asked size and rate from the one pull a browser viewer shares, only the newest
// frame kept for a slow consumer, the decoder's backpressure reaching the viewer's bounded queue, a decoder restarted
// with the pull, every decoder reaped on close; and motion on a fake camera playing real footage.
import { getDefaultHighWaterMark } from "node:stream";
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { counterBlock, readCounter } from "../fakes/ip-camera/counter";
import { signUpUser } from "../support/client";
import { allowLoopbackCameras, fakeCameraRow, insertIpCamera } from "../support/ip-cameras";
import { useSharedDatabase as openSharedDatabase } from "../support/in-process";
import { REAL_CLIP, realDataFile } from "../support/real-data";
import type { LiveStreams } from "#server/cameras/stream/index";
import type { ViewerSink } from "#server/cameras/stream/viewer";
import type { RawFrame } from "#server/local-vision/pipeline/types";

allowLoopbackCameras(inject("dataDir"));
await openSharedDatabase();
const { db } = await import("#db/index");
const { loadCameraSource } = await import("#server/cameras/source");
const { createLiveStreams } = await import("#server/cameras/stream/index");
const { openFrameSource } = await import("#server/local-vision/pipeline/frame-source");
const { createMotionDetector } = await import("#server/local-vision/pipeline/motion");

/** The sub-stream's rate (frames/s), which the burned-in counter counts in. */
const CAMERA_FPS = 15;
const SUB_WIDTH = 640;

let camera: FakeIpCamera;
let streams: LiveStreams;
let userId: string;
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  camera = await startFakeIpCamera();
  userId = (await signUpUser()).id;
  streams = createLiveStreams({ idleMs: 500, backoff: { firstMs: 200, maxMs: 1_000 }, timeoutMs: 3_000 });
});
afterAll(async () => {
  await Promise.all(opened.map((source) => source.close()));
  await streams?.close();
  await camera?.close();
});

const sourceOf = async (row = fakeCameraRow(camera)) => loadCameraSource(db(), userId, await insertIpCamera(db(), userId, row));
const open = (...args: Parameters<typeof openFrameSource>) => {
  const source = openFrameSource(...args);
  opened.push(source);
  return source;
};

/** The fake camera's frame counter, read from a frame scaled from the sub-stream's 640 px (its blocks scale with it). */
function counterOf(frame: RawFrame): number {
  if (frame.width === SUB_WIDTH) return readCounter(frame.rgb, frame.width, 3);
  const scale = frame.width / SUB_WIDTH;
  const block = counterBlock(SUB_WIDTH);
  let value = 0;
  for (let bit = 0; bit < 20; bit++) {
    const i = (Math.floor((block.h * scale) / 2) * frame.width + Math.floor((bit + 0.5) * block.w * scale)) * 3;
    if ((frame.rgb[i]! + frame.rgb[i + 1]! + frame.rgb[i + 2]!) / 3 > 128) value += 2 ** bit;
  }
  return value;
}

/** This process's ffmpeg children decoding to raw frames (the frame sources' decoders), by pid. */
function decoderPids(): number[] {
  const children: number[] = [];
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    try {
      children.push(...readFileSync(`/proc/${process.pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      // the thread ended
    }
  }
  return children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("rawvideo");
    } catch {
      return false; // exited
    }
  });
}

/** A browser-like viewer: takes every message at once and counts the fragments. */
function browserSink(): ViewerSink & { fragments: number } {
  const sink = {
    fragments: 0,
    send(data: Buffer | string, done: () => void) {
      if (typeof data !== "string") sink.fragments += 1;
      setImmediate(done);
    },
    close() {},
  };
  return sink;
}

describe("local-vision frame source", () => {
  it("decodes the sub-stream at the asked size and rate from the one pull a browser viewer shares", async () => {
    const source = await sourceOf();
    const browser = browserSink();
    const watched = streams.watch(source, browser);
    const frames = open(streams, source, { fps: 5, width: 640 });
    const small = open(streams, source, { fps: 2, width: 320 });

    // A frame's pixels are the consumer's until its next call to next(): counters are read at once.
    const firstCounter = counterOf((await frames.next())!);
    const decodedAtFirst = frames.stats().decoded;
    let last!: RawFrame;
    const buffers = new Set<ArrayBufferLike>();
    for (let i = 0; i < 15; i++) {
      last = (await frames.next())!;
      expect([last.width, last.height, last.rgb.length]).toEqual([640, 360, 640 * 360 * 3]);
      buffers.add(last.rgb.buffer);
    }
    // No garbage per frame: the pixels go round the same few buffers (filling, untaken, the consumer's).
    expect(buffers.size).toBeLessThanOrEqual(3);
    // The rate in the camera's own time (its counter), not the wall clock's: 5 frames a second of stream.
    const streamSeconds = (counterOf(last) - firstCounter) / CAMERA_FPS;
    expect(streamSeconds).toBeGreaterThan(2);
    expect((frames.stats().decoded - decodedAtFirst) / streamSeconds).toBeGreaterThan(4);
    expect((frames.stats().decoded - decodedAtFirst) / streamSeconds).toBeLessThan(6);

    const smallFirst = counterOf((await small.next())!);
    let smallLast!: RawFrame;
    for (let i = 0; i < 4; i++) smallLast = (await small.next())!;
    expect([smallLast.width, smallLast.height, smallLast.rgb.length]).toEqual([320, 180, 320 * 180 * 3]);
    const smallRate = 4 / ((counterOf(smallLast) - smallFirst) / CAMERA_FPS);
    expect(smallRate).toBeGreaterThan(1.5);
    expect(smallRate).toBeLessThan(2.5);

    // One RTSP session (the sub-stream) and one ffmpeg pull for the browser viewer and both frame sources.
    expect(camera.sessions()).toHaveLength(1);
    expect(camera.sessions()[0]!.path).toBe("/2");
    expect(streams.starts(source.cameraId)).toBe(1);
    expect(browser.fragments).toBeGreaterThan(30);
    expect(frames.stats().decoderCpuMs).toBeGreaterThan(0);
    expect(frames.stats().lastFrameAt).toBeGreaterThanOrEqual(last.at);
    watched.leave();
    await Promise.all([frames.close(), small.close()]);
  });

  it("keeps only the newest frame for a slow consumer and counts the rest as dropped", async () => {
    const source = await sourceOf();
    const frames = open(streams, source, { fps: 5, width: 640 });
    const before = counterOf((await frames.next())!);
    // The consumer is busy: frames go on being decoded, each replacing the untaken one.
    await expect.poll(() => frames.stats().dropped, { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
    const newest = (await frames.next())!;
    const stats = frames.stats();
    expect(newest.at).toBe(stats.lastFrameAt);
    // Nothing queued: every frame decoded was either taken (two) or dropped.
    expect(stats.decoded - stats.dropped).toBe(2);
    // Not the frame after `before`, but one from after the drops (each decoded frame is ~3 camera frames on).
    expect(counterOf(newest) - before).toBeGreaterThanOrEqual(stats.dropped);
    await frames.close();
  });

  it("holds the stream back in the viewer's bounded queue while the decoder is stalled, and decodes again after", async () => {
    const limits = { inFlightBytes: 16 * 1024, queueBytes: 64 * 1024 };
    const tight = createLiveStreams({ idleMs: 500, backoff: { firstMs: 200, maxMs: 1_000 }, timeoutMs: 3_000, viewerLimits: limits });
    try {
      const source = await sourceOf();
      const frames = openFrameSource(tight, source, { fps: 5, width: 640 });
      await frames.next();
      const [decoder] = decoderPids().filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("640:360"));
      expect(decoder).toBeDefined();
      const sent = () => camera.sessions().find((session) => session.playing)?.frames ?? 0;
      process.kill(decoder!, "SIGSTOP");
      try {
        // Well past what the decoder's pipe holds: 10 s of the camera's stream (about 1 MB) while it is stopped.
        const from = sent();
        await expect.poll(sent, { timeout: 30_000 }).toBeGreaterThan(from + 10 * CAMERA_FPS);
        // The viewer's queue and in-flight window, plus what stdin buffers before a write says "full" (Node's default
        // high-water mark: 16 KB on Node 20, 64 KB from Node 22) and the one fragment that crossed it (a keyframe of
        // this stream is under 64 KB). Without the backpressure it grew past 1 MB here.
        const oneFragment = 64 * 1024;
        expect(frames.stats().backlogBytes).toBeLessThanOrEqual(limits.queueBytes + limits.inFlightBytes + getDefaultHighWaterMark(false) + oneFragment);
      } finally {
        process.kill(decoder!, "SIGCONT");
      }
      const decoded = frames.stats().decoded;
      await expect.poll(() => frames.stats().decoded, { timeout: 15_000 }).toBeGreaterThan(decoded + 5);
      await frames.close();
    } finally {
      await tight.close();
    }
  });

  it("restarts the decoder when the pull restarts (the camera went away and came back)", async () => {
    const source = await sourceOf();
    const frames = open(streams, source, { fps: 5, width: 640 });
    const before = counterOf((await frames.next())!);
    expect(frames.stats().decoders).toBe(1);
    await camera.stop();
    await expect.poll(() => streams.status(source.cameraId)?.status, { timeout: 15_000 }).toBe("offline");
    // Offline: no decoder idles through the outage.
    await expect.poll(() => decoderPids().length, { timeout: 10_000 }).toBe(0);
    await camera.start();
    await expect.poll(() => frames.stats().decoders, { timeout: 20_000 }).toBe(2);
    let after = (await frames.next())!;
    // A frame of the new pull (the one untaken from before the outage may come first).
    if (counterOf(after) <= before + 1) after = (await frames.next())!;
    expect(counterOf(after)).toBeGreaterThan(before);
    expect([after.width, after.height]).toEqual([640, 360]);
    expect(streams.starts(source.cameraId)).toBe(2);
    await frames.close();
  });

  it("decodes a transcoded stream (a camera that does not send H.264) the same way", async () => {
    // A main stream only, stored as H.265: the pull transcodes it to 640×360 H.264.
    const source = await sourceOf(fakeCameraRow(camera, { subStreamUrl: null, codec: "hevc" }));
    const frames = open(streams, source, { fps: 5, width: 480 });
    const frame = (await frames.next())!;
    expect([frame.width, frame.height, frame.rgb.length]).toEqual([480, 270, 480 * 270 * 3]);
    expect(streams.status(source.cameraId)).toMatchObject({ status: "online", transcoded: true });
    expect(camera.sessions().map((session) => session.path)).toContain("/1");
    await frames.close();
  });

  it("leaves the camera and reaps its decoder on close; next() then answers null", async () => {
    const source = await sourceOf();
    const frames = open(streams, source, { fps: 5, width: 640 });
    await frames.next();
    expect(decoderPids()).toHaveLength(1);
    const waiting = frames.next();
    await frames.close();
    expect(decoderPids()).toEqual([]);
    expect(await waiting).toBeNull();
    expect(await frames.next()).toBeNull();
    // Nobody else watches it: the pull stops after the idle delay.
    await expect.poll(() => streams.status(source.cameraId)?.status, { timeout: 10_000 }).toBe("offline");
    await expect.poll(() => camera.sessions().length, { timeout: 10_000 }).toBe(0);
  });

  it("sees nobody in the empty room, then the person walking in, on a fake camera playing the real footage", async () => {
    const startedAt = Date.now();
    const footage = await startFakeIpCamera({ video: realDataFile(REAL_CLIP) });
    try {
      const source = await sourceOf(fakeCameraRow(footage));
      const frames = open(streams, source, { fps: 5, width: 640 });
      const motion = createMotionDetector();
      // The camera plays the clip from its start: a frame shows the clip at most this far in (less the stream's latency).
      const clipAtMost = (frame: RawFrame) => (frame.at - startedAt) / 1000;
      const seen: { at: number; regions: number; moving: number }[] = [];
      for (let frame = await frames.next(); frame && clipAtMost(frame) < 12; frame = await frames.next()) {
        expect([frame.width, frame.height]).toEqual([640, 360]);
        const result = motion.update(frame);
        seen.push({ at: clipAtMost(frame), regions: result.regions.length, moving: result.moving });
      }
      // The room is empty for the clip's first 5 s (its .gt.json); the first frame is the background. The pull starts
      // about 3 s in (the camera's clock runs from its start, the test's sign-up and the pull's start take that long).
      const empty = seen.slice(1).filter((frame) => frame.at < 5);
      expect(empty.length).toBeGreaterThanOrEqual(2);
      expect(empty.filter((frame) => frame.regions > 0)).toEqual([]);
      // The first person walks in at 5–6 s and to the table by 7 s.
      expect(seen.filter((frame) => frame.at > 6 && frame.regions > 0 && frame.moving > 0.01).length).toBeGreaterThanOrEqual(3);
      expect(footage.sessions()).toHaveLength(1);
      await frames.close();
    } finally {
      await footage.close();
    }
  });
});
