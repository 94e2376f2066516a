// A hostile camera on an allowed host and port answers the app's own probe normally and ffmpeg with "302 Found":
// ffmpeg (every binary this machine has) must never connect where the redirect points, neither to a port the
// address policy refuses nor to one it allows (redirects are refused, not re-checked: decision 0004). Canary
// listeners count every connection: they must see none. Also: no camera password in any ffmpeg's argv.
import { readdirSync, readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { ffmpegsUnderTest } from "../fakes/ipcam/ffmpeg-fixtures";
import { signUpUser } from "../support/client";
import { insertIpCamera, type IpCameraRow } from "../support/ip-cameras";
import { useSharedDatabase as openSharedDatabase } from "../support/in-process";
import type { CameraSource } from "#server/cameras/source";
import type { FfmpegBinary } from "#server/cameras/stream/ffmpeg-binary";
import type { StreamStatus } from "#server/cameras/stream/index";

/** A listener that only counts who connects (and hangs up on them). */
async function canary(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, connections: () => connections, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const refusedCanary = await canary();
const allowedCanary = await canary();
const PASSWORD = "redirect-Pa55-9f1e";
const cameraFor = (port: number) =>
  startFakeIpCamera({ username: "admin", password: PASSWORD, redirectFfmpeg: { rtsp: `rtsp://127.0.0.1:${port}/stolen`, http: `http://127.0.0.1:${port}/stolen` } });
const toRefused = await cameraFor(refusedCanary.port);
const toAllowed = await cameraFor(allowedCanary.port);
const honest = await startFakeIpCamera({ username: "admin", password: PASSWORD });
const cameras = [toRefused, toAllowed, honest];
// A snapshot URL that redirects whoever asks (not only ffmpeg): the app's own GET must not follow it either.
const redirectingSnapshots = createHttpServer((_req, res) => res.writeHead(302, { Location: `http://127.0.0.1:${allowedCanary.port}/stolen.jpg` }).end());
await new Promise<void>((resolve) => redirectingSnapshots.listen(0, "127.0.0.1", resolve));
const snapshotPort = (redirectingSnapshots.address() as { port: number }).port;
// The cameras' own ports and the allowed canary's are camera ports; the refused canary's is not.
process.env.PTZ_ALLOWED_NETWORKS = "127.0.0.0/8";
process.env.PTZ_ALLOWED_PORTS = [...cameras.flatMap((c) => [c.ports.rtsp, c.ports.http]), allowedCanary.port, snapshotPort].join(",");
await openSharedDatabase();
const { db } = await import("#db/index");
const { loadCameraSource } = await import("#server/cameras/source");
const { createLiveStreams, SnapshotError } = await import("#server/cameras/stream/index");
const { takeSnapshot } = await import("#server/cameras/stream/snapshot");
const binaries = await ffmpegsUnderTest();

let userId: string;
beforeAll(async () => {
  userId = (await signUpUser()).id;
  expect(inject("dataDir")).toBeTruthy();
});
afterAll(async () => {
  await Promise.all(cameras.map((camera) => camera.close()));
  await Promise.all([refusedCanary.close(), allowedCanary.close(), new Promise((resolve) => redirectingSnapshots.close(resolve))]);
});

const sourceOf = async (row: IpCameraRow): Promise<CameraSource> => loadCameraSource(db(), userId, await insertIpCamera(db(), userId, { codec: "h264", ...row }));

/** The pulls under test: RTSP and an MJPEG stream over HTTP, each with and without a login. */
const pulls = (camera: FakeIpCamera): [string, IpCameraRow][] => [
  ["RTSP with a login", { streamUrl: camera.rtspUrl("/2"), username: "admin", password: PASSWORD }],
  ["RTSP without a login", { streamUrl: camera.rtspUrl("/2") }],
  ["HTTP MJPEG with a login", { streamUrl: camera.mjpegUrl(2), username: "admin", password: PASSWORD, codec: "mjpeg" }],
  ["HTTP MJPEG without a login", { streamUrl: camera.mjpegUrl(2), codec: "mjpeg" }],
];

it("the app's own GET of a camera's snapshot URL does not follow a redirect", async () => {
  const source = await sourceOf({ streamUrl: honest.rtspUrl("/2"), snapshotUrl: `http://127.0.0.1:${snapshotPort}/snapshot.jpg`, username: "admin", password: PASSWORD });
  const error = await takeSnapshot(source, { ok: true, binary: binaries[0]! }, 5_000).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SnapshotError);
  expect(allowedCanary.connections()).toBe(0);
});

describe.each(binaries.map((b) => [`${b.source} ffmpeg ${b.version}`, b] as const))("%s", (_name, binary: FfmpegBinary) => {
  const found = { ok: true as const, binary };

  describe.each([
    ["to a port the policy refuses", toRefused, refusedCanary],
    ["to a camera port the policy allows", toAllowed, allowedCanary],
  ] as const)("a camera redirecting ffmpeg %s", (_where, camera, listener) => {
    it.each(pulls(camera))("%s: a snapshot from the stream fails as unreachable and the redirect target sees no connection", async (_kind, row) => {
      const source = await sourceOf(row);
      const error = await takeSnapshot(source, found, 5_000).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SnapshotError);
      expect(error).toMatchObject({ reason: "unreachable" });
      expect(listener.connections()).toBe(0);
    });

    it.each(pulls(camera))("%s: the live stream goes offline (unreachable) and the redirect target sees no connection", async (_kind, row) => {
      const streams = createLiveStreams({ binary: async () => found, idleMs: 200, backoff: { firstMs: 60_000, maxMs: 60_000 }, timeoutMs: 3_000 });
      try {
        const source = await sourceOf(row);
        const statuses: StreamStatus[] = [];
        const sink = {
          send: (data: Buffer | string, done: (error?: Error) => void) => (typeof data === "string" && statuses.push(JSON.parse(data)), setImmediate(done)),
          close: () => {},
        };
        const { leave } = streams.watch(source, sink);
        await expect.poll(() => statuses.at(-1)?.status, { timeout: 15_000 }).toBe("offline");
        expect(statuses.at(-1)?.reason).toBe("unreachable");
        leave();
      } finally {
        await streams.close();
      }
      expect(listener.connections()).toBe(0);
    });
  });

  it("pulls an honest camera over RTSP and MJPEG through the relays, with no password in ffmpeg's argv", async () => {
    const streams = createLiveStreams({ binary: async () => found, idleMs: 200, backoff: { firstMs: 200, maxMs: 1_000 }, timeoutMs: 5_000 });
    try {
      for (const row of [
        { streamUrl: honest.rtspUrl("/2"), username: "admin", password: PASSWORD },
        { streamUrl: honest.mjpegUrl(2), username: "admin", password: PASSWORD, codec: "mjpeg" },
      ]) {
        const source = await sourceOf(row);
        const statuses: StreamStatus[] = [];
        let frames = 0;
        const sink = {
          send: (data: Buffer | string, done: (error?: Error) => void) => {
            if (typeof data === "string") statuses.push(JSON.parse(data));
            else frames += 1;
            setImmediate(done);
          },
          close: () => {},
        };
        const { leave } = streams.watch(source, sink);
        await expect.poll(() => frames, { timeout: 20_000 }).toBeGreaterThan(2);
        expect(statuses.at(-1)?.status).toBe("online");
        for (const argv of ffmpegArgvs(binary.path)) {
          expect(argv).not.toContain(PASSWORD);
          expect(argv).not.toContain(encodeURIComponent(PASSWORD));
        }
        leave();
      }
    } finally {
      await streams.close();
    }
  });
});

/** The command lines of this process's running ffmpeg children, as any local user reads them in /proc. */
function ffmpegArgvs(binaryPath: string): string[] {
  const argvs: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      // stat: "pid (comm) state ppid …"; comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== process.pid) continue;
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
      if (argv.startsWith(binaryPath)) argvs.push(argv);
    } catch {
      // exited meanwhile
    }
  }
  expect(argvs.length).toBeGreaterThan(0);
  return argvs;
}
