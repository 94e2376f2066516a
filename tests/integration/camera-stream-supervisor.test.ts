// The camera stream supervisor in this process, against the real ffmpeg and the fake IP camera on loopback:
// one pull per camera, fan-out with bounded memory, idle stop, backoff restart, statuses, snapshots.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { signUpUser } from "../support/client";
import { allowLoopbackCameras, fakeCameraRow, insertIpCamera } from "../support/ip-cameras";
import { useSharedDatabase as openSharedDatabase } from "../support/in-process";
import { tempDir } from "../support/stack";
import type { LiveStreams, StreamStatus } from "#server/cameras/stream/index";

allowLoopbackCameras(inject("dataDir"));
await openSharedDatabase();
const { db } = await import("#db/index");
const { loadCameraSource } = await import("#server/cameras/source");
const { createLiveStreams, SnapshotError } = await import("#server/cameras/stream/index");
const { Fmp4Splitter } = await import("#server/cameras/stream/fmp4-splitter");
const presence = await import("#server/cameras/stream/presence");

/** A viewer transport that records what it is given; it can stall (never finish a send) like a slow network. */
function testSink() {
  const splitter = new Fmp4Splitter();
  const sink = {
    statuses: [] as StreamStatus[],
    inits: 0,
    fragments: [] as { sequence: number; keyframe: boolean; bytes: number }[],
    closed: null as null | { code: number; reason: string },
    stalled: false,
    pending: [] as (() => void)[],
    send(data: Buffer | string, done: (error?: Error) => void) {
      if (typeof data === "string") sink.statuses.push(JSON.parse(data) as StreamStatus);
      else
        for (const segment of splitter.push(data)) {
          if (segment.kind === "init") sink.inits += 1;
          // mfhd's sequence_number: moof header (8), mfhd header (8), version+flags (4).
          else sink.fragments.push({ sequence: segment.data.readUInt32BE(20), keyframe: segment.keyframe, bytes: segment.data.length });
        }
      if (sink.stalled) sink.pending.push(() => done());
      else setImmediate(done);
    },
    close(code: number, reason: string) {
      sink.closed = { code, reason };
    },
    release() {
      sink.stalled = false;
      for (const done of sink.pending.splice(0)) done();
    },
    get last() {
      return sink.statuses.at(-1);
    },
  };
  return sink;
}

let camera: FakeIpCamera;
let streams: LiveStreams;
let userId: string;
// Above the burst ffmpeg sends after probing (about 3 s of the sub-stream at once), so only a stalled viewer overflows.
const LIMITS = { inFlightBytes: 64 * 1024, queueBytes: 512 * 1024 };

const settings = { idleMs: 500, backoff: { firstMs: 200, maxMs: 1_000 }, timeoutMs: 3_000, viewerLimits: LIMITS };

beforeAll(async () => {
  // As an app process does: its pulls are visible to the other processes on the shared database (other test files'
  // apps), so their start-up reset leaves this process's cameras' statuses alone.
  presence.startCameraPresence(inject("databaseUrl"));
  await vi.waitFor(() => expect(presence.processIdentity()).not.toBeNull(), { timeout: 10_000 });
  camera = await startFakeIpCamera();
  userId = (await signUpUser()).id;
});
beforeEach(() => {
  streams = createLiveStreams(settings);
});
// Every test starts with no pull left over (a failed test's viewers would otherwise still hold sessions).
afterEach(async () => {
  await streams.close();
  await vi.waitFor(() => expect(camera.sessions()).toHaveLength(0), { timeout: 10_000 });
});
afterAll(async () => {
  await camera?.close();
  await presence.stopCameraPresence();
});

const sourceOf = async (row = fakeCameraRow(camera)) => loadCameraSource(db(), userId, await insertIpCamera(db(), userId, row));
/** The camera row's status is written after the stream's own (a database round trip, slower on a loaded machine). */
const ROW_WRITE = { timeout: 10_000 };
const rowStatus = (id: string) => db().selectFrom("cameras").select(["status", "status_reason"]).where("id", "=", id).executeTakeFirstOrThrow();

describe("camera stream supervisor", () => {
  it("pulls the sub-stream once for two viewers: status with the mime, then the init segment, then fragments from a keyframe", async () => {
    const source = await sourceOf();
    const a = testSink();
    const b = testSink();
    const first = streams.watch(source, a);
    const second = streams.watch(source, b);
    await expect.poll(() => a.fragments.length + b.fragments.length, { timeout: 15_000 }).toBeGreaterThan(20);
    expect(camera.sessions()).toHaveLength(1);
    expect(camera.sessions()[0]!.path).toBe("/2");
    expect(streams.starts(source.cameraId)).toBe(1);
    for (const sink of [a, b]) {
      const withMime = sink.statuses.find((s) => s.mime);
      expect(withMime).toMatchObject({ status: "connecting", mime: expect.stringMatching(/^video\/mp4; codecs="avc1\.42/), width: 640, height: 360, transcoded: false });
      expect(sink.inits).toBe(1);
      expect(sink.fragments[0]!.keyframe).toBe(true);
      expect(sink.last).toMatchObject({ status: "online", reason: null });
    }
    await expect.poll(() => rowStatus(source.cameraId), ROW_WRITE).toEqual({ status: "online", status_reason: null });
    // Another app process starting up on the same database resets stale statuses, not a camera this one pulls (fresh
    // modules: a process whose presence connection is not open yet, as at start-up).
    vi.resetModules();
    const anotherProcess = await import("#server/cameras/service");
    await anotherProcess.resetCameraStatusesAtStartUp(db());
    expect(await rowStatus(source.cameraId)).toEqual({ status: "online", status_reason: null });

    // A third viewer joining a running stream starts at once from the kept GOP (its first fragment is a keyframe).
    const c = testSink();
    const third = streams.watch(source, c);
    expect(c.inits).toBe(1);
    expect(c.fragments[0]?.keyframe).toBe(true);
    expect(c.last?.status).toBe("online");
    for (const viewer of [first, second, third]) viewer.leave();
    // Idle stop: CAMERA_STREAM_IDLE_MS after the last viewer, the camera sees its session end.
    await expect.poll(() => camera.sessions().length, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => streams.status(source.cameraId)?.status).toBe("offline");
    expect(streams.starts(source.cameraId)).toBe(1);
  });

  it("keeps the pull alive for a hold (a monitor) with no viewer, and stops it once released", async () => {
    const source = await sourceOf();
    const release = streams.hold(source);
    await expect.poll(() => streams.status(source.cameraId)?.status, { timeout: 15_000 }).toBe("online");
    expect(camera.sessions().filter((s) => s.playing)).toHaveLength(1);
    release();
    release(); // twice is harmless
    await expect.poll(() => streams.status(source.cameraId)?.status, { timeout: 10_000 }).toBe("offline");
    expect(streams.status(source.cameraId)?.reason).toBeNull();
    await expect.poll(() => camera.sessions().length).toBe(0);
  });

  it("restarts on the new address when a viewer comes with a changed camera row (a change this process was not told of)", async () => {
    const source = await sourceOf();
    const before = testSink();
    const first = streams.watch(source, before);
    await expect.poll(() => before.fragments.length, { timeout: 15_000 }).toBeGreaterThan(0);
    // The row says the camera is now viewed on its main stream: the old pull's viewers reconnect (1012), the new one plays.
    const after = testSink();
    const second = streams.watch({ ...source, viewUrl: camera.rtspUrl("/1"), mainUrl: null }, after);
    expect(before.closed).toMatchObject({ code: 1012 });
    await expect.poll(() => after.fragments.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => camera.sessions().map((session) => session.path)).toEqual(["/1"]);
    first.leave();
    second.leave();
    await expect.poll(() => camera.sessions().length, { timeout: 10_000 }).toBe(0);
  });

  it("starts again at once, with no offline between, when a viewer comes while its idle stop is under way", async () => {
    // An "ffmpeg" that outlives SIGTERM (by the 2 s before SIGKILL) and says when it got it: the idle stop's window.
    const dir = tempDir("slow-stop");
    const stopping = path.join(dir, "stopping");
    const script = path.join(dir, "ffmpeg");
    writeFileSync(script, `#!/bin/sh\ntrap ': > ${stopping}' TERM\nwhile :; do /bin/sleep 0.05; done\n`);
    chmodSync(script, 0o755);
    const binary = async () => ({
      ok: true as const,
      binary: { path: script, source: "FFMPEG_PATH" as const, version: "test", rtspTimeoutOption: "timeout" as const, release: 5 },
    });
    // A failure would be retried only after a minute: a restart seen sooner is the immediate one.
    const slow = createLiveStreams({ idleMs: 50, backoff: { firstMs: 60_000, maxMs: 60_000 }, timeoutMs: 3_000, viewerLimits: LIMITS, binary });
    try {
      const source = await sourceOf();
      const release = slow.hold(source);
      await expect.poll(() => slow.starts(source.cameraId), { timeout: 10_000 }).toBe(1);
      release();
      await expect.poll(() => existsSync(stopping), { timeout: 10_000 }).toBe(true);
      const sink = testSink();
      slow.watch(source, sink);
      await expect.poll(() => slow.starts(source.cameraId), { timeout: 10_000 }).toBe(2);
      expect(sink.statuses.map((status) => status.status)).not.toContain("offline");
    } finally {
      await slow.close();
    }
  });

  it("skips a viewer that cannot keep up to the next keyframe, with bounded memory, while a fast one misses nothing", async () => {
    const source = await sourceOf();
    const fast = testSink();
    const slow = testSink();
    const fastWatch = streams.watch(source, fast);
    const slowWatch = streams.watch(source, slow);
    await expect.poll(() => slow.fragments.length, { timeout: 15_000 }).toBeGreaterThan(2);
    slow.stalled = true;
    await expect.poll(() => slowWatch.viewer.skips, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const receivedBefore = slow.fragments.length;
    slow.release();
    await expect.poll(() => slow.fragments.length, { timeout: 15_000 }).toBeGreaterThan(receivedBefore + 5);
    // The fast viewer got every fragment, in order (ffmpeg's mfhd sequence numbers rise, not always by one).
    expect(fast.fragments.every((f, i) => i === 0 || f.sequence > fast.fragments[i - 1]!.sequence)).toBe(true);
    // The slow viewer's stream has gaps (against the fast one's), and the fragment after each gap is a keyframe.
    const order = new Map(fast.fragments.map((f, i) => [f.sequence, i]));
    const gaps = slow.fragments.filter((f, i) => i > 0 && order.get(f.sequence) !== order.get(slow.fragments[i - 1]!.sequence)! + 1);
    expect(gaps.length).toBeGreaterThanOrEqual(1);
    expect(gaps.filter((after) => !after.keyframe)).toEqual([]);
    // Memory held for it never passed its limits (plus the one message in flight when it stalled).
    const largest = Math.max(...slow.fragments.map((f) => f.bytes));
    expect(slowWatch.viewer.peakBytes).toBeLessThanOrEqual(LIMITS.inFlightBytes + LIMITS.queueBytes + largest);
    expect(fastWatch.viewer.skips).toBe(0);
    fastWatch.leave();
    slowWatch.leave();
  });

  it("goes offline when the camera drops and online again when it returns (restart with backoff)", async () => {
    const source = await sourceOf();
    const sink = testSink();
    const watch = streams.watch(source, sink);
    await expect.poll(() => sink.last?.status, { timeout: 15_000 }).toBe("online");
    await camera.stop();
    try {
      await expect.poll(() => sink.last?.status, { timeout: 15_000 }).toBe("offline");
      expect(["stream ended", "unreachable"]).toContain(sink.last?.reason);
      await expect.poll(() => rowStatus(source.cameraId), ROW_WRITE).toMatchObject({ status: "offline" });
      // While the camera stays away, the retries find it unreachable.
      await expect.poll(() => sink.statuses.some((s) => s.reason === "unreachable"), { timeout: 15_000 }).toBe(true);
    } finally {
      await camera.start();
    }
    const initsBefore = sink.inits;
    await expect.poll(() => sink.last?.status, { timeout: 20_000 }).toBe("online");
    expect(sink.inits).toBe(initsBefore + 1); // a fresh init segment after the restart
    await expect.poll(() => rowStatus(source.cameraId), ROW_WRITE).toEqual({ status: "online", status_reason: null });
    watch.leave();
  });

  it("keeps the camera password out of every process's command line (ffmpeg logs in through the loopback relay)", async () => {
    const password = `pw-${randomBytes(6).toString("hex")}`;
    const locked = await startFakeIpCamera({ password });
    try {
      const source = await sourceOf(fakeCameraRow(locked));
      const sink = testSink();
      const watch = streams.watch(source, sink);
      await expect.poll(() => sink.last?.status, { timeout: 15_000 }).toBe("online");
      const snapshot = await streams.snapshot(source); // the one-shot pull of the main stream too
      expect(snapshot.width).toBe(1280);
      const commandLines = readdirSync("/proc")
        .filter((name) => /^\d+$/.test(name))
        .map((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, "latin1");
          } catch {
            return ""; // gone since the listing
          }
        });
      expect(commandLines.some((line) => line.includes("127.0.0.1") && line.includes("rtsp://"))).toBe(true); // ffmpeg is running
      expect(commandLines.filter((line) => line.includes(password))).toEqual([]);
      watch.leave();
    } finally {
      await locked.close();
    }
  });

  it("says 'authentication failed' for a wrong password, to viewers and on the camera row", async () => {
    const source = await sourceOf(fakeCameraRow(camera, { password: "wrong" }));
    const sink = testSink();
    const watch = streams.watch(source, sink);
    await expect.poll(() => sink.last?.reason, { timeout: 15_000 }).toBe("authentication failed");
    expect(sink.last?.status).toBe("offline");
    await expect.poll(() => rowStatus(source.cameraId), ROW_WRITE).toEqual({ status: "offline", status_reason: "authentication failed" });
    watch.leave();
    await expect(streams.snapshot(source)).rejects.toMatchObject({ reason: "authentication failed" });
  });

  it("transcodes a camera whose codec a browser cannot play (MJPEG over HTTP) to H.264 and says so", async () => {
    const source = await sourceOf({ streamUrl: camera.mjpegUrl(1), username: camera.username, password: camera.password, codec: "mjpeg" });
    const sink = testSink();
    const watch = streams.watch(source, sink);
    await expect.poll(() => sink.fragments.length, { timeout: 20_000 }).toBeGreaterThan(3);
    expect(sink.statuses.find((s) => s.mime)).toMatchObject({ mime: expect.stringMatching(/avc1/), width: 640, height: 360, transcoded: true, codec: "mjpeg" });
    expect(sink.fragments[0]!.keyframe).toBe(true);
    watch.leave();
  });

  it("takes a snapshot at the main stream's full resolution, from the snapshot URL or the main stream", async () => {
    const sharp = (await import("sharp")).default;
    for (const row of [fakeCameraRow(camera), fakeCameraRow(camera, { snapshotUrl: camera.snapshotUrl(1) })]) {
      const source = await sourceOf(row);
      const started = performance.now();
      const snapshot = await streams.snapshot(source);
      const ms = Math.round(performance.now() - started);
      console.info(`snapshot via ${row.snapshotUrl ? "snapshot URL" : "main stream"}: ${ms} ms`);
      expect([snapshot.width, snapshot.height]).toEqual([1280, 720]);
      expect(await sharp(snapshot.jpeg).metadata()).toMatchObject({ format: "jpeg", width: 1280, height: 720 });
    }
    // A camera with one stream, being watched: the frame comes from the running pull's kept GOP.
    const single = await sourceOf(fakeCameraRow(camera, { subStreamUrl: null }));
    const sink = testSink();
    const watch = streams.watch(single, sink);
    await expect.poll(() => sink.fragments.length, { timeout: 15_000 }).toBeGreaterThan(2);
    const started = performance.now();
    const fromGop = await streams.snapshot(single);
    console.info(`snapshot from the running pull's GOP: ${Math.round(performance.now() - started)} ms`);
    expect([fromGop.width, fromGop.height]).toEqual([1280, 720]);
    expect(camera.sessions()).toHaveLength(1);
    watch.leave();

    const bad = await sourceOf(fakeCameraRow(camera, { snapshotUrl: camera.snapshotUrl(1), password: "nope" }));
    await expect(streams.snapshot(bad)).rejects.toBeInstanceOf(SnapshotError);
    await expect(streams.snapshot(bad)).rejects.toMatchObject({ reason: "authentication failed" });
  });
});
