// A one-connection RTSP relay on loopback between ffmpeg and every RTSP camera it pulls. It logs in to the camera for
// ffmpeg, so no camera password is ever in ffmpeg's argv (readable by every local user in /proc/<pid>/cmdline), and
// it is the only way out: ffmpeg opens rtsp://127.0.0.1:PORT/TOKEN/path; the relay forwards to the camera's checked
// address, rewriting the request URIs and answering its Digest or Basic challenge itself, and refuses a redirect
// (3xx) instead of passing it on, since ffmpeg would follow its Location past the address policy. The token is
// single-use and the listener closes at the first connection.
import { randomBytes } from "node:crypto";
import { connect as tcpConnect, createServer, isIP, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { basicAuthorization, digestAuthorization, parseChallenge, type DigestChallenge } from "../../net/digest-auth";
import type { CameraCredentials } from "../source";
import { REDIRECT_REFUSED, type PullRelay, type PullTarget } from "./pull-types";

const MAX_MESSAGE_BYTES = 64 * 1024;

/** `target`: the camera's checked URL (no credentials) and address; its `host` is the name an rtsps camera's certificate carries. */
export async function startRtspRelay(target: PullTarget, credentials: CameraCredentials | null): Promise<PullRelay> {
  const camera = new URL(target.url);
  const token = randomBytes(16).toString("hex");
  const server = createServer({ pauseOnConnect: false });
  const sockets = new Set<Socket>();
  let upstreamError: string | null = null;
  let used = false;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const port = (server.address() as { port: number }).port;
  const ours = `rtsp://127.0.0.1:${port}/${token}`;
  const theirs = `${camera.protocol}//${camera.host}`;

  server.on("connection", (client) => {
    sockets.add(client);
    client.on("error", () => client.destroy());
    if (used) return void client.destroy();
    used = true;
    server.close(); // one connection: the token is spent
    const { address: host, port } = target;
    // A login is only sent to a certificate that checks out; without one, the camera is taken as ffmpeg itself takes
    // it (no verification: cameras' certificates are mostly self-signed, and the address was judged by policy).
    const tls = { servername: isIP(target.host) ? undefined : target.host, rejectUnauthorized: credentials !== null };
    const upstream = camera.protocol === "rtsps:" ? tlsConnect({ host, port, ...tls }) : tcpConnect({ host, port });
    sockets.add(upstream);
    upstream.setNoDelay(true);
    client.setNoDelay(true);
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      upstreamError ??= error.code ?? error.message;
      client.destroy();
    });
    let clientGone = false;
    upstream.on("close", () => {
      if (!clientGone) upstreamError ??= "closed by the camera";
      client.destroy();
    });
    client.on("close", () => {
      clientGone = true;
      upstream.destroy();
    });

    // Whatever URL ffmpeg names (ours, or an absolute control URL from the SDP), the request goes to the checked camera.
    const toCamera = (uri: string) => {
      if (uri.startsWith(ours)) return `${theirs}${uri.slice(ours.length)}`;
      if (!/^rtsps?:\/\//i.test(uri)) return uri; // "*"
      const url = new URL(uri);
      return `${theirs}${url.pathname}${url.search}`;
    };
    let challenge: DigestChallenge | undefined;
    let basic = false;
    const sent = new Map<string, { head: string[]; body: Buffer; retried: boolean }>();
    const authorize = (method: string, uri: string): string | undefined => {
      if (!credentials) return undefined;
      if (basic) return basicAuthorization(credentials.username, credentials.password);
      return challenge ? digestAuthorization(challenge, { method, uri, ...credentials }) : undefined;
    };
    const send = (head: string[], body: Buffer) => {
      const [method, uri] = head[0]!.split(" ");
      const auth = authorize(method!, uri!);
      const lines = head.filter((line) => !/^authorization:/i.test(line));
      if (auth) lines.push(`Authorization: ${auth}`);
      upstream.write(Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`), body]));
    };

    // ffmpeg → camera: requests (URI rewritten, login added) and interleaved RTCP frames, passed on as they are.
    readMessages(client, (message) => {
      if (message.frame) return void upstream.write(message.frame);
      const head = message.head!;
      const [method, uri, version] = head[0]!.split(" ");
      if (!uri || !version) return void client.destroy();
      head[0] = `${method} ${toCamera(uri)} ${version}`;
      const cseq = header(head, "cseq") ?? "";
      sent.set(cseq, { head, body: message.body!, retried: false });
      send(head, message.body!);
    });

    // camera → ffmpeg: a 401 is answered here (once per request); everything else goes back unchanged.
    readMessages(upstream, (message) => {
      if (message.frame) return void client.write(message.frame);
      const head = message.head!;
      const cseq = header(head, "cseq") ?? "";
      const request = sent.get(cseq);
      if (/^RTSP\/1\.\d 3\d\d/.test(head[0]!)) {
        // Its Location is wherever the camera says, judged by nobody: ffmpeg gets an error without it, and stops.
        upstreamError = REDIRECT_REFUSED;
        sent.delete(cseq);
        return void client.write(`RTSP/1.0 502 Bad Gateway\r\nCSeq: ${cseq}\r\nContent-Length: 0\r\n\r\n`);
      }
      if (/^RTSP\/1\.\d 401/.test(head[0]!) && credentials && request && !request.retried) {
        const offered = header(head, "www-authenticate") ?? "";
        const digest = parseChallenge(offered);
        if (digest || /^\s*basic/i.test(offered)) {
          challenge = digest;
          basic = !digest;
          request.retried = true;
          return send(request.head, request.body);
        }
      }
      sent.delete(cseq);
      // The base ffmpeg resolves SETUP's track URLs against: ours, so they come back through the relay.
      for (let i = 1; i < head.length; i++) {
        const match = /^(content-base|content-location):\s*(rtsps?:\/\/\S+)$/i.exec(head[i]!);
        if (match) head[i] = `${match[1]}: ${ours}${new URL(match[2]!).pathname}`;
      }
      client.write(Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), message.body!]));
    });
  });

  return {
    url: `${ours}${camera.pathname}${camera.search}`,
    get upstreamError() {
      return upstreamError;
    },
    close() {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

function header(head: string[], name: string): string | undefined {
  const prefix = `${name}:`;
  const line = head.slice(1).find((l) => l.toLowerCase().startsWith(prefix));
  return line?.slice(prefix.length).trim();
}

type Message = { frame?: Buffer; head?: string[]; body?: Buffer };

/** Splits an RTSP connection's bytes into interleaved frames ($, channel, length) and messages (head + body). */
function readMessages(socket: Socket, onMessage: (message: Message) => void) {
  let buffer: Buffer = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    for (;;) {
      if (!buffer.length) return;
      if (buffer[0] === 0x24) {
        if (buffer.length < 4) return;
        const end = 4 + buffer.readUInt16BE(2);
        if (buffer.length < end) return;
        onMessage({ frame: buffer.subarray(0, end) });
        buffer = buffer.subarray(end);
        continue;
      }
      const headEnd = buffer.indexOf("\r\n\r\n");
      if (headEnd < 0) {
        if (buffer.length > MAX_MESSAGE_BYTES) socket.destroy();
        return;
      }
      const head = buffer.toString("latin1", 0, headEnd).split("\r\n");
      const length = Number(header(head, "content-length") ?? 0);
      if (!Number.isSafeInteger(length) || length < 0 || length > MAX_MESSAGE_BYTES) return void socket.destroy();
      const end = headEnd + 4 + length;
      if (buffer.length < end) return;
      onMessage({ head, body: Buffer.from(buffer.subarray(headEnd + 4, end)) });
      buffer = buffer.subarray(end);
    }
  });
}
