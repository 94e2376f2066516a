// A small RTSP 1.0 server (RFC 2326) as an IP camera runs it: OPTIONS, DESCRIBE (SDP with sprop-parameter-sets),
// SETUP (RTP/AVP/TCP interleaved only: UDP is refused with 461, as the app pulls with -rtsp_transport tcp), PLAY,
// PAUSE, TEARDOWN, GET/SET_PARAMETER keepalives; an RTCP sender report before each keyframe; every request but
// OPTIONS behind Digest authentication.
// A session ends with TEARDOWN or its connection; `sessions` lists the live ones (a test asserts one pull per camera).
import { randomBytes } from "node:crypto";
import { type Server, type Socket, createServer } from "node:net";
import type { Authenticator } from "./auth";
import { RtpPacketiser, interleaved } from "./rtp";
import type { Frame, FrameSource, StreamSpec } from "./source";

export interface RtspSession {
  id: string;
  /** The stream path, e.g. "/1". */
  path: string;
  playing: boolean;
  /** Frames sent to this session so far. */
  frames: number;
}

export interface RtspStream {
  spec: StreamSpec;
  source: FrameSource;
}

interface Request {
  method: string;
  uri: string;
  headers: Record<string, string>;
}

/** Bytes queued on a slow connection beyond which it skips to the next keyframe (memory stays bounded). */
const MAX_QUEUED = 4 * 1024 * 1024;

export class RtspServer {
  readonly sessions = new Map<string, RtspSession>();
  /** Sessions set up since the server was made (a test tells a new pull from none, however short it was). */
  sessionsStarted = 0;
  /** The most sessions live at once since the last `resetPeak()` (a test of "one pull at a time" sees every overlap, however short). */
  peakSessions = 0;
  /** A hostile camera: DESCRIBE from ffmpeg (User-Agent Lavf…) answered "302 Found" to here; other clients (the app's probe) get the stream. */
  redirectFfmpeg?: string;
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly streams: Map<string, RtspStream>,
    private readonly auth: Authenticator,
  ) {}

  listen(port: number): Promise<number> {
    const server = createServer((socket) => this.connection(socket));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
    });
  }

  /** Starts a new peak from the sessions live now. */
  resetPeak(): void {
    this.peakSessions = this.sessions.size;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  private connection(socket: Socket) {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const owned = new Map<string, () => void>(); // session id → its cleanup
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (buffer.length && buffer[0] === 0x24) {
          // Interleaved data from the client (RTCP receiver reports): read past it.
          if (buffer.length < 4) return;
          const length = 4 + buffer.readUInt16BE(2);
          if (buffer.length < length) return;
          buffer = buffer.subarray(length);
          continue;
        }
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const [requestLine = "", ...lines] = buffer.subarray(0, end).toString("latin1").split("\r\n");
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(":");
          if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const bodyLength = Number(headers["content-length"] ?? 0);
        if (buffer.length < end + 4 + bodyLength) return;
        buffer = buffer.subarray(end + 4 + bodyLength);
        const [method = "", uri = ""] = requestLine.split(" ");
        void this.request(socket, { method, uri, headers }, owned);
      }
    });
    const cleanup = () => {
      this.sockets.delete(socket);
      for (const end of owned.values()) end();
      owned.clear();
    };
    socket.on("close", cleanup);
    socket.on("error", () => socket.destroy());
  }

  private async request(socket: Socket, req: Request, owned: Map<string, () => void>) {
    const reply = (status: string, headers: Record<string, string | number> = {}, body = "") => {
      const lines = [`RTSP/1.0 ${status}`, `CSeq: ${req.headers.cseq ?? 0}`, "Server: Framewise fake camera", `Date: ${new Date().toUTCString()}`];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      if (!socket.destroyed) socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
    };
    if (req.method === "OPTIONS") return reply("200 OK", { Public: "OPTIONS, DESCRIBE, SETUP, PLAY, PAUSE, TEARDOWN, GET_PARAMETER, SET_PARAMETER" });
    if (req.method === "DESCRIBE" && this.redirectFfmpeg && req.headers["user-agent"]?.startsWith("Lavf")) return reply("302 Found", { Location: this.redirectFfmpeg });
    if (!this.auth.check(req.method, req.headers.authorization)) return reply("401 Unauthorized", { "WWW-Authenticate": this.auth.challenge() });
    const url = parseUrl(req.uri);
    const sessionId = req.headers.session?.split(";")[0]?.trim();
    const session = sessionId ? this.sessions.get(sessionId) : undefined;
    if (sessionId && !session) return reply("454 Session Not Found");
    const sessionHeader: Record<string, string> = session ? { Session: `${session.id};timeout=60` } : {};
    switch (req.method) {
      case "DESCRIBE": {
        const stream = this.streams.get(url.path);
        if (!stream) return reply("404 Not Found");
        const { sps, pps } = await stream.source.ensureParameterSets();
        const sdp = describe(stream.spec, sps, pps);
        return reply("200 OK", { "Content-Type": "application/sdp", "Content-Base": `${url.base}/` }, sdp);
      }
      case "SETUP": {
        const path = url.path.replace(/\/trackID=\d+$/, "");
        if (!this.streams.has(path)) return reply("404 Not Found");
        const transport = req.headers.transport ?? "";
        const channels = /RTP\/AVP\/TCP[^,]*?interleaved=(\d+)(?:-(\d+))?/.exec(transport);
        if (!channels) return reply("461 Unsupported Transport");
        if (session) return reply("459 Aggregate Operation Not Allowed", sessionHeader);
        const rtp = Number(channels[1]);
        const rtcp = channels[2] === undefined ? rtp + 1 : Number(channels[2]);
        const created: RtspSession = { id: randomBytes(6).toString("hex"), path, playing: false, frames: 0 };
        const packetiser = new RtpPacketiser();
        this.sessions.set(created.id, created);
        this.sessionsStarted += 1;
        this.peakSessions = Math.max(this.peakSessions, this.sessions.size);
        let unsubscribe: (() => void) | undefined;
        const end = () => {
          unsubscribe?.();
          unsubscribe = undefined;
          created.playing = false;
          this.sessions.delete(created.id);
        };
        owned.set(created.id, end);
        playControls.set(created, {
          play: () => {
            if (unsubscribe) return;
            const stream = this.streams.get(path)!;
            let needKeyframe = true;
            unsubscribe = stream.source.subscribe((frame: Frame) => {
              if (socket.writableLength > MAX_QUEUED) needKeyframe = true;
              if (needKeyframe && !frame.keyframe) return;
              needKeyframe = false;
              const timestamp = packetiser.timestamp(frame.counter, stream.spec.fps);
              // A sender report before each keyframe's packets (about once a second), on the RTCP channel.
              if (frame.keyframe) socket.write(interleaved(rtcp, packetiser.senderReport(timestamp, frame.at)));
              for (const packet of packetiser.packets(frame.data, timestamp)) socket.write(interleaved(rtp, packet));
              created.frames++;
            });
          },
          pause: () => (unsubscribe?.(), (unsubscribe = undefined)),
          end,
          packetiser,
        });
        return reply("200 OK", {
          Transport: `RTP/AVP/TCP;unicast;interleaved=${rtp}-${rtcp};ssrc=${packetiser.ssrc.toString(16).padStart(8, "0").toUpperCase()}`,
          Session: `${created.id};timeout=60`,
        });
      }
      case "PLAY":
      case "PAUSE":
      case "TEARDOWN": {
        const controls = session && playControls.get(session);
        if (!session || !controls) return reply("454 Session Not Found");
        if (req.method === "TEARDOWN") {
          controls.end();
          owned.delete(session.id);
          return reply("200 OK");
        }
        if (req.method === "PAUSE") {
          controls.pause();
          session.playing = false;
          return reply("200 OK", sessionHeader);
        }
        const trackUrl = `${parseUrl(req.uri).base.replace(/\/$/, "")}/trackID=1`;
        const sequence = controls.packetiser.sequence;
        controls.play();
        session.playing = true;
        return reply("200 OK", { ...sessionHeader, Range: "npt=0.000-", "RTP-Info": `url=${trackUrl};seq=${sequence}` });
      }
      case "GET_PARAMETER":
      case "SET_PARAMETER":
        return reply("200 OK", sessionHeader);
      default:
        return reply("405 Method Not Allowed", { Allow: "OPTIONS, DESCRIBE, SETUP, PLAY, PAUSE, TEARDOWN, GET_PARAMETER, SET_PARAMETER" });
    }
  }
}

interface PlayControls {
  play(): void;
  pause(): void;
  end(): void;
  packetiser: RtpPacketiser;
}
const playControls = new WeakMap<RtspSession, PlayControls>();

/** Path without trailing slash or query, and the URL without query or trailing slash (the Content-Base). */
function parseUrl(uri: string): { path: string; base: string } {
  try {
    const url = new URL(uri);
    const path = url.pathname.replace(/\/+$/, "") || "/";
    return { path, base: `${url.protocol}//${url.host}${path}` };
  } catch {
    return { path: uri, base: uri };
  }
}

function describe(spec: StreamSpec, sps: Buffer, pps: Buffer): string {
  const profileLevelId = sps.subarray(1, 4).toString("hex");
  return [
    "v=0",
    `o=- ${Date.now()} 1 IN IP4 127.0.0.1`,
    "s=Framewise fake camera",
    "c=IN IP4 0.0.0.0",
    "t=0 0",
    "a=control:*",
    "a=range:npt=0-",
    "m=video 0 RTP/AVP 96",
    "a=rtpmap:96 H264/90000",
    `a=fmtp:96 packetization-mode=1;profile-level-id=${profileLevelId};sprop-parameter-sets=${sps.toString("base64")},${pps.toString("base64")}`,
    `a=framerate:${spec.fps}`,
    `a=x-dimensions:${spec.width},${spec.height}`,
    "a=control:trackID=1",
    "",
  ].join("\r\n");
}
