// The fake IP camera against real clients on loopback: the system ffmpeg/ffprobe over RTSP (Digest), fetch for
// MJPEG/snapshot, and the `onvif` package (the client the app uses) for discovery.
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import onvif from "onvif";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authorizationFor } from "./auth";
import { type FakeIpCamera, startFakeIpCamera } from "./camera";
import { readCounter } from "./counter";
import { FFMPEG } from "./source";

const FFPROBE = "/usr/bin/ffprobe";

interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs a process to completion (killed after `timeoutMs`, so a hung pull fails the test instead of the suite). */
function run(command: string, args: string[], timeoutMs = 20_000): Promise<Run> & { kill(): void } {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  const stdout: Buffer[] = [];
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const done = new Promise<Run>((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(stdout), stderr });
    }),
  );
  return Object.assign(done, { kill: () => void child.kill("SIGKILL") });
}

const withCredentials = (url: string, user: string, password: string) => url.replace("://", `://${user}:${password}@`);
const pull = (url: string, frames = 5) => run(FFMPEG, ["-hide_banner", "-loglevel", "error", "-rtsp_transport", "tcp", "-i", url, "-frames:v", String(frames), "-f", "null", "-"]);

async function probe(url: string) {
  const result = await run(FFPROBE, [
    "-v",
    "error",
    "-analyzeduration",
    "1000000",
    "-rtsp_transport",
    "tcp",
    "-show_entries",
    "stream=codec_name,profile,width,height",
    "-of",
    "json",
    url,
  ]);
  return (JSON.parse(result.stdout.toString() || "{}") as { streams?: { codec_name: string; profile: string; width: number; height: number }[] }).streams?.[0];
}

/** GET with the camera's Digest (or Basic) challenge answered, as a camera client does. */
async function authedFetch(url: string, username: string, password: string): Promise<Response> {
  const first = await fetch(url);
  if (first.status !== 401) return first;
  await first.body?.cancel();
  const { pathname, search } = new URL(url);
  const authorization = authorizationFor(first.headers.get("www-authenticate") ?? "", "GET", pathname + search, username, password);
  return fetch(url, { headers: { authorization } });
}

type Callback = (error: Error | null, result?: unknown) => void;
interface Cam {
  connect(cb: Callback): void;
  getStreamUri(options: { protocol: string; profileToken: string }, cb: Callback): void;
  getSnapshotUri(options: { profileToken: string }, cb: Callback): void;
  profiles: { $: { token: string }; videoEncoderConfiguration?: { resolution?: { width: number; height: number } } }[];
}
const call = <T>(fn: (cb: Callback) => void) => new Promise<T>((resolve, reject) => fn((error, result) => (error ? reject(error) : resolve(result as T))));
const onvifCam = (camera: FakeIpCamera, password: string) =>
  new (onvif as unknown as { Cam: new (options: Record<string, unknown>) => Cam }).Cam({
    hostname: "127.0.0.1",
    port: camera.ports.onvif,
    path: "/onvif/device_service",
    username: camera.username,
    password,
    autoconnect: false,
  });

describe("fake IP camera", () => {
  let camera: FakeIpCamera;
  beforeAll(async () => {
    camera = await startFakeIpCamera({ username: "operator", password: "s3cret", idleMs: 500 });
  });
  afterAll(() => camera?.close());
  const url = (path: "/1" | "/2" = "/1", password = "s3cret") => withCredentials(camera.rtspUrl(path), "operator", password);

  it("serves H.264 over RTSP with Digest authentication: main 1280×720 at /1, sub 640×360 at /2", async () => {
    const result = await pull(url("/1"));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(await probe(url("/1"))).toEqual({ codec_name: "h264", profile: "Main", width: 1280, height: 720 });
    expect(await probe(url("/2"))).toEqual({ codec_name: "h264", profile: "Constrained Baseline", width: 640, height: 360 });
  });

  it("refuses a wrong password with 401, as a camera does", async () => {
    const before = camera.authFailures();
    const result = await pull(url("/1", "wrong"));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/401 Unauthorized/);
    expect(camera.authFailures()).toBeGreaterThan(before);
  });

  it("counts live sessions and shares one encoder between pulls of the same stream", async () => {
    await vi.waitFor(() => expect(camera.sessions()).toEqual([]), { timeout: 10_000 });
    const encoders = camera.encodersStarted()["/2"]!.h264;
    const first = pull(url("/2"), 100_000);
    const second = pull(url("/2"), 100_000);
    await vi.waitFor(() => expect(camera.sessions().filter((s) => s.playing && s.frames > 0)).toHaveLength(2), { timeout: 15_000 });
    expect(camera.sessions().map((s) => s.path)).toEqual(["/2", "/2"]);
    expect(camera.encodersStarted()["/2"]!.h264 - encoders).toBeLessThanOrEqual(1);
    first.kill();
    await vi.waitFor(() => expect(camera.sessions()).toHaveLength(1), { timeout: 10_000 });
    second.kill();
    await vi.waitFor(() => expect(camera.sessions()).toHaveLength(0), { timeout: 10_000 });
  });

  it("burns a frame counter into the picture that reads back from decoded pixels", async () => {
    const frames = await run(FFMPEG, ["-v", "error", "-rtsp_transport", "tcp", "-i", url("/1"), "-frames:v", "2", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]);
    expect(frames.code).toBe(0);
    const size = 1280 * 720 * 3;
    expect(frames.stdout.length).toBe(2 * size);
    const [a, b] = [readCounter(frames.stdout.subarray(0, size), 1280, 3), readCounter(frames.stdout.subarray(size), 1280, 3)];
    expect(b).toBe(a + 1);
    expect(camera.frameSentAt("/1", a)).toBeTypeOf("number");
  });

  it("copy-muxes to fragmented MP4 without transcoding, as the app's live view pulls it", async () => {
    const output = `${tmpdir()}/fake-ip-camera-${process.pid}.mp4`;
    const args = ["-v", "error", "-rtsp_transport", "tcp", "-i", url("/1"), "-frames:v", "20", "-c", "copy", "-f", "mp4"];
    expect((await run(FFMPEG, [...args, "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-y", output])).code).toBe(0);
    const frames = await run(FFPROBE, ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames,r_frame_rate", "-of", "csv=p=0", output]);
    await rm(output, { force: true });
    expect(frames.stdout.toString().trim()).toBe("15/1,20");
  });

  it("is driven from other processes through its control server", async () => {
    const status = async () => (await (await fetch(`${camera.controlUrl}/__status`)).json()) as { online: boolean; ports: { rtsp: number } };
    expect(await status()).toMatchObject({ online: true, ports: { rtsp: camera.ports.rtsp } });
    expect((await fetch(`${camera.controlUrl}/__stop`, { method: "POST" })).status).toBe(200);
    expect(camera.online).toBe(false);
    expect((await status()).online).toBe(false);
    expect((await fetch(`${camera.controlUrl}/__start`, { method: "POST" })).status).toBe(200);
    expect(camera.online).toBe(true);
  });

  it("goes away on stop() and comes back on the same port on start()", async () => {
    const port = camera.ports.rtsp;
    await camera.stop();
    const refused = await pull(url("/1"));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Connection refused/);
    await camera.start();
    expect(camera.ports.rtsp).toBe(port);
    expect((await pull(url("/1"))).code).toBe(0);
  });

  it("answers a JPEG snapshot and an MJPEG stream behind the same credentials", async () => {
    expect((await authedFetch(camera.snapshotUrl(), "operator", "wrong")).status).toBe(401);
    const snapshot = await authedFetch(camera.snapshotUrl(), "operator", "s3cret");
    expect(snapshot.status).toBe(200);
    expect(snapshot.headers.get("content-type")).toBe("image/jpeg");
    expect([...new Uint8Array(await snapshot.arrayBuffer()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    const mjpeg = await authedFetch(camera.mjpegUrl(2), "operator", "s3cret");
    expect(mjpeg.headers.get("content-type")).toMatch(/^multipart\/x-mixed-replace; boundary=/);
    const reader = mjpeg.body!.getReader();
    let received = Buffer.alloc(0);
    while (received.toString("latin1").split("Content-Type: image/jpeg").length < 3) received = Buffer.concat([received, (await reader.read()).value!]);
    await reader.cancel();
    expect(received.indexOf(Buffer.from([0xff, 0xd8, 0xff]))).toBeGreaterThan(0);
    // ffmpeg's own HTTP client (Digest) decodes the snapshot at the main stream's size.
    expect(await probe(withCredentials(camera.snapshotUrl(1), "operator", "s3cret"))).toMatchObject({ width: 1280, height: 720 });
  });

  it("is discovered over ONVIF by host + credentials: GetProfiles, GetStreamUri, GetSnapshotUri", async () => {
    const cam = onvifCam(camera, "s3cret");
    await call((cb) => cam.connect(cb));
    expect(cam.profiles.map((p) => p.$.token)).toEqual(["Profile_1", "Profile_2"]);
    expect(cam.profiles[1]!.videoEncoderConfiguration?.resolution).toEqual({ width: 640, height: 360 });
    const stream = await call<{ uri: string }>((cb) => cam.getStreamUri({ protocol: "RTSP", profileToken: "Profile_2" }, cb));
    expect(stream.uri).toBe(camera.rtspUrl("/2"));
    const snapshot = await call<{ uri: string }>((cb) => cam.getSnapshotUri({ profileToken: "Profile_1" }, cb));
    expect(snapshot.uri).toBe(camera.snapshotUrl(1));
    await expect(call((cb) => onvifCam(camera, "wrong").connect(cb))).rejects.toThrow();
  });
});
