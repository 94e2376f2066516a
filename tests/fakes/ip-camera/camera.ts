// The fake IP camera: an RTSP server (H.264 main stream at /1, sub stream at /2), ONVIF device/media answers and
// HTTP snapshot/MJPEG, all on 127.0.0.1 and behind one set of credentials. `stop()` takes the whole camera off the
// network (connections dropped, encoders killed) and `start()` brings it back on the same ports. A control server
// on its own port (`/__status`, `POST /__stop`, `POST /__start`) lets browser tests in other processes drive it.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { SimulatedHead } from "../ptz/head";
import { type FakeOnvif, startFakeOnvif } from "../ptz/onvif";
import { type AuthScheme, Authenticator } from "./auth";
import { CameraHttpServer } from "./http";
import { RtspServer, type RtspSession, type RtspStream } from "./rtsp";
import { FFMPEG, FrameSource, type StreamSpec, type VideoFile } from "./source";

export interface FakeIpCameraOptions {
  username?: string;
  password?: string;
  /** Scheme of the HTTP snapshot/MJPEG endpoints (RTSP always uses Digest). Default digest. */
  httpAuth?: AuthScheme;
  main?: Partial<StreamSpec>;
  sub?: Partial<StreamSpec>;
  /** How long an encoder outlives its last viewer (ms). */
  idleMs?: number;
  /**
   * A hostile camera: its answers to ffmpeg (User-Agent Lavf…) are "302 Found" to these URLs (RTSP DESCRIBE, HTTP
   * snapshot/MJPEG), while the app's own probe gets the stream as usual.
   */
  redirectFfmpeg?: { rtsp?: string; http?: string };
  /**
   * A video file to play in a loop instead of testsrc2 (e.g. real footage of people), on every stream at that
   * stream's size and rate. The frame counter is testsrc2's only: `frameSentAt` still counts frames, but they carry no
   * blocks to read it back from.
   */
  video?: string;
  /** The head its ONVIF PTZ commands steer (a fresh one by default). */
  head?: SimulatedHead;
  /** Every stream shows `head`'s view (its rendered world) instead of testsrc2: a picture that follows its own pan/tilt/zoom. */
  headView?: boolean;
}

export interface FakeIpCamera {
  host: "127.0.0.1";
  username: string;
  password: string;
  ports: { rtsp: number; http: number; onvif: number; control: number };
  /** e.g. rtsp://127.0.0.1:PORT/1, without credentials. */
  rtspUrl(path?: "/1" | "/2"): string;
  snapshotUrl(stream?: 1 | 2): string;
  mjpegUrl(stream?: 1 | 2): string;
  /** The ONVIF device service (http://127.0.0.1:PORT/onvif/device_service). */
  onvifUrl: string;
  /** Control server for other processes: GET /__status, POST /__stop, POST /__start. */
  controlUrl: string;
  readonly online: boolean;
  /** Live RTSP sessions (set up and not torn down); `playing` ones are receiving frames. */
  sessions(): RtspSession[];
  /** RTSP sessions set up since the camera was created, ended ones included. */
  sessionsStarted(): number;
  /** The most RTSP sessions live at once since `resetPeakSessions()` (or since the camera was created). */
  peakSessions(): number;
  resetPeakSessions(): void;
  /** ffmpeg encoders started per stream path since the camera was created (H.264 and JPEG). */
  encodersStarted(): Record<string, { h264: number; jpeg: number }>;
  /** Date.now() when the frame with this burned-in counter left the camera's encoder (latest 600 frames). */
  frameSentAt(path: "/1" | "/2", counter: number): number | undefined;
  /** Date.now() when the stream's running encoder sent its first frame (with `video`: where the file's loop starts). */
  firstFrameAt(path: "/1" | "/2"): number | undefined;
  authFailures(): number;
  mjpegClients(): number;
  onvif(): FakeOnvif | undefined;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_MAIN: StreamSpec = { width: 1280, height: 720, fps: 15, profile: "main", gop: 15 };
const DEFAULT_SUB: StreamSpec = { width: 640, height: 360, fps: 15, profile: "baseline", gop: 15 };

export async function startFakeIpCamera(options: FakeIpCameraOptions = {}): Promise<FakeIpCamera> {
  const username = options.username ?? "admin";
  const password = options.password ?? "admin";
  const epoch = Date.now();
  const video = options.video === undefined ? undefined : videoFile(options.video);
  const specs: Record<"/1" | "/2", StreamSpec> = { "/1": { ...DEFAULT_MAIN, ...options.main }, "/2": { ...DEFAULT_SUB, ...options.sub } };
  const streams = new Map<string, RtspStream>();
  const jpegSources = new Map<string, FrameSource>();
  const head = options.head;
  const picture = options.headView && head ? (width: number, height: number) => head.render(width, height).data : undefined;
  for (const [path, spec] of Object.entries(specs)) {
    streams.set(path, { spec, source: new FrameSource(spec, "h264", epoch, options.idleMs, video, picture) });
    jpegSources.set(path, new FrameSource(spec, "jpeg", epoch, options.idleMs, video, picture));
  }
  const rtspAuth = new Authenticator(username, password, "digest");
  const httpAuth = new Authenticator(username, password, options.httpAuth ?? "digest");
  const rtsp = new RtspServer(streams, rtspAuth);
  const http = new CameraHttpServer(jpegSources, httpAuth);
  rtsp.redirectFfmpeg = options.redirectFfmpeg?.rtsp;
  http.redirectFfmpeg = options.redirectFfmpeg?.http;
  const ports = { rtsp: 0, http: 0, onvif: 0, control: 0 };
  let onvif: FakeOnvif | undefined;
  let online = false;

  const media = () =>
    (["/1", "/2"] as const).map((path, i) => ({
      token: `Profile_${i + 1}`,
      name: i === 0 ? "mainStream" : "subStream",
      ...specs[path],
      streamUri: `rtsp://127.0.0.1:${ports.rtsp}${path}`,
      snapshotUri: `http://127.0.0.1:${ports.http}/snapshot.jpg?stream=${i + 1}`,
    }));

  const start = async () => {
    if (online) return;
    ports.rtsp = await rtsp.listen(ports.rtsp);
    ports.http = await http.listen(ports.http);
    onvif = await startFakeOnvif({ username, password, port: ports.onvif, media: media(), head: options.head });
    ports.onvif = onvif.port;
    online = true;
  };
  const stop = async () => {
    if (!online) return;
    online = false;
    await Promise.all([rtsp.close(), http.close(), onvif?.close()]);
    for (const source of [...[...streams.values()].map((s) => s.source), ...jpegSources.values()]) source.stop();
  };

  const control: Server = createServer((req, res) => {
    const done = (body: unknown) => (res.writeHead(200, { "Content-Type": "application/json" }), res.end(JSON.stringify(body)));
    if (req.method === "POST" && req.url === "/__stop") return void stop().then(() => done({ online }));
    if (req.method === "POST" && req.url === "/__start") return void start().then(() => done({ online }));
    if (req.method === "GET" && req.url === "/__status") return done(status());
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  ports.control = (control.address() as { port: number }).port;

  const encodersStarted = () => Object.fromEntries(Object.keys(specs).map((path) => [path, { h264: streams.get(path)!.source.spawned, jpeg: jpegSources.get(path)!.spawned }]));
  const status = () => ({
    online,
    ports,
    sessions: [...rtsp.sessions.values()],
    encodersStarted: encodersStarted(),
    authFailures: rtspAuth.failures + httpAuth.failures,
    mjpegClients: http.mjpegClients,
  });

  await start();
  return {
    host: "127.0.0.1",
    username,
    password,
    ports,
    rtspUrl: (path = "/1") => `rtsp://127.0.0.1:${ports.rtsp}${path}`,
    snapshotUrl: (stream = 1) => `http://127.0.0.1:${ports.http}/snapshot.jpg?stream=${stream}`,
    mjpegUrl: (stream = 1) => `http://127.0.0.1:${ports.http}/video.mjpeg?stream=${stream}`,
    get onvifUrl() {
      return `http://127.0.0.1:${ports.onvif}/onvif/device_service`;
    },
    controlUrl: `http://127.0.0.1:${ports.control}`,
    get online() {
      return online;
    },
    sessions: () => [...rtsp.sessions.values()],
    sessionsStarted: () => rtsp.sessionsStarted,
    peakSessions: () => rtsp.peakSessions,
    resetPeakSessions: () => rtsp.resetPeak(),
    encodersStarted,
    frameSentAt: (path, counter) => streams.get(path)?.source.sentAt.get(counter),
    firstFrameAt: (path) => streams.get(path)?.source.firstFrameAt,
    authFailures: () => rtspAuth.failures + httpAuth.failures,
    mjpegClients: () => http.mjpegClients,
    onvif: () => onvif,
    start,
    stop,
    close: async () => {
      await stop();
      await new Promise<void>((resolve) => (control.closeAllConnections(), control.close(() => resolve())));
    },
  };
}

/** The file and its length (ffprobe); a missing file is an error naming it, so a test never runs on no footage. */
function videoFile(file: string): VideoFile {
  if (!existsSync(file)) throw new Error(`fake IP camera: the video ${file} does not exist`);
  const probed = execFileSync(FFMPEG.replace(/ffmpeg$/, "ffprobe"), ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file], { encoding: "utf8" });
  const durationMs = Math.round(Number(probed.trim()) * 1000);
  if (!(durationMs > 0)) throw new Error(`fake IP camera: ${file} has no duration (ffprobe said "${probed.trim()}")`);
  return { file, durationMs };
}
