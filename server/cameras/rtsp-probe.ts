// A minimal RTSP client that sends one DESCRIBE (Digest or Basic on a 401, once) to learn whether the stream
// exists, whether the login works and which codec the SDP announces — in one round trip or two, without ffmpeg.
import net from "node:net";
import tls from "node:tls";
import { basicAuthorization, digestAuthorization, parseChallenge } from "../net/digest-auth";
import type { CameraCredentials } from "./source";

export type ProbeOutcome = { kind: "ok"; codec: string | null } | { kind: "auth" } | { kind: "missing"; status: number } | { kind: "unreachable"; why: string };

const MAX_RESPONSE = 64 * 1024;

/** SDP encoding names (RFC 4566 rtpmap) as the codec names the rest of the app uses. */
const CODECS: Record<string, string> = { H264: "h264", H265: "hevc", HEVC: "hevc", JPEG: "mjpeg", "MP4V-ES": "mpeg4", VP8: "vp8", VP9: "vp9", AV1: "av1" };

/** The video codec an SDP announces (first m=video section), or null when it names none. */
export function sdpVideoCodec(sdp: string): string | null {
  const lines = sdp.split(/\r?\n/);
  const start = lines.findIndex((line) => line.startsWith("m=video"));
  if (start < 0) return null;
  const payloads = lines[start]!.split(" ").slice(3);
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("m=")) break;
    const match = /^a=rtpmap:(\d+)\s+([\w.-]+)\//.exec(line);
    if (match && payloads.includes(match[1]!)) return CODECS[match[2]!.toUpperCase()] ?? match[2]!.toLowerCase();
  }
  // Static payload type 26 is JPEG without an rtpmap line.
  return payloads.includes("26") ? "mjpeg" : null;
}

interface RtspResponse {
  status: number;
  headers: Record<string, string[]>;
  body: string;
}

/**
 * DESCRIBE `url` (no credentials inside) at the already-checked `address`; retries once with the credentials when
 * challenged. Never throws: the outcome says what happened. `signal` aborts (the caller's deadline).
 */
export async function probeRtsp(url: URL, address: string, port: number, credentials: CameraCredentials | null, signal: AbortSignal): Promise<ProbeOutcome> {
  const connection = new RtspConnection(address, port, url.protocol === "rtsps:" ? url.hostname : null, signal);
  try {
    const describe = (authorization?: string) => connection.request("DESCRIBE", url.href, authorization ? { Authorization: authorization } : {});
    let response = await describe();
    if (response.status === 401) {
      if (!credentials) return { kind: "auth" };
      const header = response.headers["www-authenticate"];
      const challenge = parseChallenge(header);
      const authorization = challenge
        ? digestAuthorization(challenge, { method: "DESCRIBE", uri: url.href, ...credentials })
        : header?.some((h) => /^\s*basic/i.test(h))
          ? basicAuthorization(credentials.username, credentials.password)
          : null;
      if (!authorization) return { kind: "auth" };
      response = await describe(authorization);
      if (response.status === 401) return { kind: "auth" };
    }
    if (response.status !== 200) return { kind: "missing", status: response.status };
    return { kind: "ok", codec: sdpVideoCodec(response.body) };
  } catch (error) {
    return { kind: "unreachable", why: error instanceof Error ? error.message : String(error) };
  } finally {
    connection.close();
  }
}

/** One TCP (or TLS) connection speaking RTSP/1.0 requests and responses, one at a time. */
class RtspConnection {
  private readonly socket: net.Socket;
  private buffer = Buffer.alloc(0);
  private cseq = 0;
  private readonly ready: Promise<void>;
  private waiting?: { resolve: () => void; reject: (error: Error) => void };
  private failure?: Error;
  private rejectReady?: (error: Error) => void;

  constructor(address: string, port: number, servername: string | null, signal: AbortSignal) {
    // Cameras' TLS certificates are self-signed: the address was checked by policy; the probe reads only the SDP.
    this.socket =
      servername !== null
        ? tls.connect({ host: address, port, servername: net.isIP(servername) ? undefined : servername, rejectUnauthorized: false })
        : net.connect({ host: address, port });
    this.ready = new Promise((resolve, reject) => {
      this.socket.once(servername !== null ? "secureConnect" : "connect", () => resolve());
      this.rejectReady = reject;
    });
    this.socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      if (this.buffer.length > MAX_RESPONSE) this.fail(new Error("answer too large"));
      this.waiting?.resolve();
    });
    this.socket.on("error", (error) => this.fail(error));
    this.socket.on("close", () => this.fail(new Error("connection closed")));
    const abort = () => this.fail(new Error("no answer in time"));
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
  }

  async request(method: string, uri: string, headers: Record<string, string>): Promise<RtspResponse> {
    await this.ready;
    this.cseq += 1;
    const lines = [`${method} ${uri} RTSP/1.0`, `CSeq: ${this.cseq}`, "Accept: application/sdp", "User-Agent: Framewise", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    this.socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    for (;;) {
      const response = this.take();
      if (response) return response;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve, reject) => (this.waiting = { resolve, reject }));
    }
  }

  close() {
    this.socket.destroy();
  }

  private fail(error: Error) {
    this.failure ??= error;
    this.socket.destroy();
    this.rejectReady?.(this.failure);
    this.waiting?.reject(this.failure);
  }

  /** A whole response from the buffer (head and Content-Length body), or null while more bytes are due. */
  private take(): RtspResponse | null {
    const end = this.buffer.indexOf("\r\n\r\n");
    if (end < 0) return null;
    const head = this.buffer.subarray(0, end).toString("latin1").split("\r\n");
    const status = /^RTSP\/1\.\d (\d{3})/.exec(head[0] ?? "");
    if (!status) throw new Error("not an RTSP answer");
    const headers: Record<string, string[]> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(":");
      if (colon > 0) (headers[line.slice(0, colon).trim().toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
    }
    const length = Number(headers["content-length"]?.[0] ?? 0);
    if (this.buffer.length < end + 4 + length) return null;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString("utf8");
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status: Number(status[1]), headers, body };
  }
}
