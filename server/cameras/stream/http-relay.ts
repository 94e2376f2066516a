// A one-request HTTP relay on loopback between ffmpeg and an HTTP(S) camera stream (MJPEG, MPEG-TS, MP4), the
// HTTP twin of rtsp-relay.ts: ffmpeg opens http://127.0.0.1:PORT/TOKEN/path with no login in its argv; the relay
// GETs the camera's checked address itself (TLS for https, the certificate unchecked as ffmpeg left it: cameras'
// are mostly self-signed, and the address was judged by policy), answers a Digest or Basic challenge once, and refuses a
// redirect: ffmpeg's HTTP client follows a Location anywhere (the npm 4.1 build has no -max_redirects), so it never
// sees one. The token is single-use and the listener closes at the first connection.
import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type Socket } from "node:net";
import { basicAuthorization, digestAuthorization, parseChallenge } from "../../net/digest-auth";
import type { CameraCredentials } from "../source";
import { REDIRECT_REFUSED, type PullRelay, type PullTarget } from "./pull-types";

/** What ffmpeg may send on and what of the camera's answer goes back: the rest (cookies, auth, hop-by-hop) stays. */
const REQUEST_HEADERS = ["user-agent", "accept", "range", "icy-metadata"];
const ANSWER_HEADERS = ["content-type", "content-length", "content-range", "accept-ranges"];

/** `target`: the camera's checked URL (no credentials) and address; its `host` names it in Host and to TLS. */
export async function startHttpRelay(target: PullTarget, credentials: CameraCredentials | null): Promise<PullRelay> {
  const camera = new URL(target.url);
  const token = randomBytes(16).toString("hex");
  const sockets = new Set<Socket>();
  let upstreamError: string | null = null;
  let used = false;
  const server = createServer((req, res) => {
    // One connection: the token is spent. Closed only now, with this request under way: server.close() also closes
    // idle connections, and on Node 26 a connection that has not sent its request yet counts as idle.
    server.close();
    if (!req.url?.startsWith(`/${token}/`)) return void res.writeHead(404).end();
    forward(req.url.slice(token.length + 1), req, res);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    if (used) return void socket.destroy();
    used = true;
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const port = (server.address() as { port: number }).port;

  const forward = (path: string, req: IncomingMessage, res: ServerResponse) => {
    const secure = camera.protocol === "https:";
    const host = target.host.includes(":") ? `[${target.host}]` : target.host;
    const headers: Record<string, string> = { Host: camera.port ? `${host}:${camera.port}` : host };
    for (const name of REQUEST_HEADERS) if (typeof req.headers[name] === "string") headers[name] = req.headers[name];
    const send = (authorization: string | undefined, retried: boolean) => {
      const options = {
        host: target.address,
        port: target.port,
        path,
        method: "GET",
        agent: false as const,
        headers: authorization ? { ...headers, Authorization: authorization } : headers,
        ...(secure ? { servername: isIP(target.host) ? undefined : target.host, rejectUnauthorized: false } : {}),
      };
      const upstream = (secure ? httpsRequest : httpRequest)(options, (answer) => {
        const status = answer.statusCode ?? 502;
        const authorization = status === 401 && !retried ? authorizationFor(answer.headers["www-authenticate"], path, credentials) : undefined;
        if (authorization) {
          answer.resume();
          return send(authorization, true);
        }
        if (status >= 300 && status < 400) {
          // Its Location is wherever the camera says, judged by nobody: ffmpeg gets an error without it, and stops.
          upstreamError = REDIRECT_REFUSED;
          answer.destroy();
          return void res.writeHead(502, { "Content-Length": 0 }).end();
        }
        const kept: Record<string, string | string[]> = {};
        for (const name of ANSWER_HEADERS) if (answer.headers[name] !== undefined) kept[name] = answer.headers[name];
        res.writeHead(status, kept);
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      });
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        upstreamError ??= error.code ?? error.message;
        res.destroy();
      });
      res.on("close", () => upstream.destroy());
      upstream.end();
    };
    send(undefined, false);
  };

  return {
    url: `http://127.0.0.1:${port}/${token}${camera.pathname}${camera.search}`,
    get upstreamError() {
      return upstreamError;
    },
    close() {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

function authorizationFor(offered: string | string[] | undefined, path: string, credentials: CameraCredentials | null): string | undefined {
  if (!credentials || !offered) return undefined;
  const challenge = parseChallenge(offered);
  if (challenge) return digestAuthorization(challenge, { method: "GET", uri: path, ...credentials });
  return [offered].flat().some((h) => /^\s*basic/i.test(h)) ? basicAuthorization(credentials.username, credentials.password) : undefined;
}
