// The live view's WebSocket, GET /api/cameras/{id}/live: the HTTP server's upgrade requests (which never reach Express
// or React Router) checked here for host, Origin, session and ownership, then handed to the camera's stream as a viewer.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { db } from "#db/index";
import { findSession } from "../accounts/sessions";
import { loadCameraSource } from "../cameras/source";
import type { LiveStreams } from "../cameras/stream/supervisor";
import { logger } from "../logger";
import { hostNameOf } from "../net/host-name";
import { isKnownHost } from "./allowed-hosts";
import { isOwnOrigin } from "./security";

const LIVE_PATH = /^\/api\/cameras\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/live$/i;
/** Close codes (the contract in docs/architecture.md): not signed in; not found, not yours or not an IP camera. */
export const CLOSE_NOT_SIGNED_IN = 4401;
export const CLOSE_NOT_FOUND = 4404;
/** A viewer whose connection died without a close (sleeping laptop, cut network) is found by a ping within this. */
const PING_MS = 30_000;

const sockets = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024, perMessageDeflate: false });

function refuse(socket: Duplex, status: number, text: string) {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** The HTTP server's "upgrade" listener, handing viewers to the process's camera streams. */
export const upgradeHandler = (streams: LiveStreams) => (req: IncomingMessage, socket: Duplex, head: Buffer) => {
  socket.on("error", () => socket.destroy());
  const path = (req.url ?? "").split("?")[0]!;
  const match = LIVE_PATH.exec(path);
  if (!match) return refuse(socket, 404, "Not Found");
  const host = req.headers.host ?? "";
  const hostname = hostNameOf(host);
  // As rejectUnknownHosts does for every other request (DNS rebinding).
  if (!hostname || !isKnownHost(hostname)) return refuse(socket, 421, "Misdirected Request");
  // Cross-site WebSocket hijacking: a page elsewhere could open this socket with the user's cookie. Browsers
  // always send Origin on a WebSocket and a page cannot forge it; a caller without one is not a browser.
  const origin = req.headers.origin;
  if (origin && !isOwnOrigin(origin, [`http://${host}`, `https://${host}`])) return refuse(socket, 403, "Forbidden");
  sockets.handleUpgrade(req, socket, head, (ws) => void accept(ws, streams, req, match[1]!.toLowerCase()));
};

async function accept(ws: WebSocket, streams: LiveStreams, req: IncomingMessage, cameraId: string) {
  ws.on("error", () => ws.terminate());
  let leave: (() => void) | undefined;
  ws.once("close", () => leave?.());
  try {
    // The app's own session lookup, given the cookie as any API request would give it.
    const request = new Request(`http://localhost${req.url ?? "/"}`, { headers: { cookie: req.headers.cookie ?? "" } });
    const session = await findSession(request);
    if (!session) return ws.close(CLOSE_NOT_SIGNED_IN, "Sign in to continue");
    const source = await loadCameraSource(db(), session.user.id, cameraId).catch(() => null);
    if (!source) return ws.close(CLOSE_NOT_FOUND, "Camera not found");
    if (ws.readyState !== ws.OPEN) return;
    const watched = streams.watch(source, {
      send: (data, done) => ws.send(data, { binary: typeof data !== "string" }, done),
      close: (code, reason) => ws.close(code, reason),
    });
    leave = watched.leave;
    keepAlive(ws);
  } catch (error) {
    logger.warn({ err: error, cameraId }, "live view could not start");
    ws.close(1011, "Something went wrong on our side");
  }
}

function keepAlive(ws: WebSocket) {
  let alive = true;
  ws.on("pong", () => (alive = true));
  const timer = setInterval(() => {
    if (!alive) return void ws.terminate();
    alive = false;
    ws.ping();
  }, PING_MS);
  timer.unref();
  ws.once("close", () => clearInterval(timer));
}
