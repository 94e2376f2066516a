// The camera relay between app processes (docs/decisions/0008-camera-owner.md): the process that owns a camera
// serves its live stream to the others on an internal address of its own, as the same messages a browser viewer
// gets, so only the owner pulls the camera. Requests are signed with a key derived from SESSION_SECRET.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, WebSocket } from "ws";
import { db } from "#db/index";
import { config } from "../../config";
import { logger } from "../../logger";
import { loadCameraSource } from "../source";
import { CAMERA_OFFLINE_REASONS } from "#app/schemas/cameras";
import { ownsCamera } from "./presence";
import { SnapshotError, type Snapshot } from "./snapshot";
import type { LiveStreams } from "./live-streams";

/** Close codes of the relay: the request was not signed right; this process does not own the camera (ask again). */
export const CLOSE_NOT_OWNER = 4409;
const AUTH_SCHEME = "FramewiseRelay";
/** A signed request is good this long: the clocks of the deployment's machines may differ by as much. */
const SIGNATURE_TTL_MS = 60_000;
const RELAY_PATH = /^\/cameras\/([0-9a-f-]{36})\/([0-9a-f-]{36})\/([a-z]+)$/i;

let key: Buffer | undefined;
/** Its own key, not SESSION_SECRET itself: a relay signature can never pass for a session's, nor the reverse. */
function relayKey(): Buffer {
  key ??= createHmac("sha256", config().sessionSecret).update("framewise camera relay v1").digest();
  return key;
}

function signature(path: string, expires: number): Buffer {
  return createHmac("sha256", relayKey()).update(`GET ${path} ${expires}`).digest();
}

/** The Authorization header for a relay request of `path`. */
export function signRelayRequest(path: string, now = Date.now()): string {
  const expires = now + SIGNATURE_TTL_MS;
  return `${AUTH_SCHEME} ${expires}.${signature(path, expires).toString("base64url")}`;
}

/** Whether `header` signs `path` with this deployment's key and has not expired. */
export function verifyRelayRequest(path: string, header: string | undefined, now = Date.now()): boolean {
  const match = /^FramewiseRelay (\d{1,15})\.([\w-]{43})$/.exec(header ?? "");
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires < now || expires > now + 2 * SIGNATURE_TTL_MS) return false;
  return timingSafeEqual(signature(path, expires), Buffer.from(match[2]!, "base64url"));
}

export function relayPath(userId: string, cameraId: string, what: string = "live"): string {
  return `/cameras/${userId}/${cameraId}/${what}`;
}

/** Opens the owner's relay of a camera: the messages a browser viewer gets (status text, init and fragments). */
export function openRelay(relayUrl: string, userId: string, cameraId: string): WebSocket {
  const path = relayPath(userId, cameraId);
  return new WebSocket(`${relayUrl.replace(/^http/, "ws")}${path}`, {
    headers: { authorization: signRelayRequest(path) },
    perMessageDeflate: false,
    handshakeTimeout: 5_000,
    maxPayload: 64 * 1024 * 1024,
  });
}

/**
 * A snapshot taken by the camera's owner (its kept GOP, its one request at a time): the picture, or SnapshotError with
 * the owner's reason; null when the owner could not be asked (it went away: take it here instead).
 */
export async function snapshotFromOwner(relayUrl: string, userId: string, cameraId: string, timeoutMs: number): Promise<Snapshot | null> {
  const path = relayPath(userId, cameraId, "snapshot");
  const response = await fetch(`${relayUrl}${path}`, { headers: { authorization: signRelayRequest(path) }, signal: AbortSignal.timeout(timeoutMs) }).catch(() => null);
  if (!response) return null;
  if (response.status === 422) {
    const { reason } = (await response.json()) as { reason: string };
    const known = CAMERA_OFFLINE_REASONS.find((r) => r === reason);
    throw new SnapshotError(known ?? "stream ended");
  }
  if (!response.ok) return null;
  return {
    jpeg: Buffer.from(await response.arrayBuffer()),
    width: Number(response.headers.get("x-width")),
    height: Number(response.headers.get("x-height")),
  };
}

async function serveSnapshot(res: ServerResponse, streams: LiveStreams, userId: string, cameraId: string) {
  try {
    const source = await loadCameraSource(db(), userId, cameraId).catch(() => null);
    if (!source) return void res.writeHead(404).end();
    const snapshot = await streams.snapshot(source, { here: true });
    res.writeHead(200, { "content-type": "image/jpeg", "x-width": snapshot.width, "x-height": snapshot.height }).end(snapshot.jpeg);
  } catch (error) {
    if (error instanceof SnapshotError) return void res.writeHead(422, { "content-type": "application/json" }).end(JSON.stringify({ reason: error.reason }));
    logger.warn({ err: error, cameraId }, "camera relay: snapshot failed");
    res.writeHead(500).end();
  }
}

/** A GET another part of the process serves on the relay (a camera's pipeline scene: server/local-vision/pipeline/). */
export type RelayHandler = (res: ServerResponse, userId: string, cameraId: string, closed: AbortSignal) => void;

export interface RelayServer {
  /** Where other processes reach this one: http://host:port. */
  url: string;
  /** Serves signed GETs of /cameras/{userId}/{cameraId}/{what} with `handler`. */
  serve(what: string, handler: RelayHandler): void;
  close(): Promise<void>;
}

/**
 * Listens on `host` (an address other processes can reach; loopback on one machine) at `port` (0: any free one).
 * `exclusive`: a worker of node:cluster listens on its own port, not one shared with the other workers.
 */
export async function startRelayServer(streams: LiveStreams, host: string, port: number): Promise<RelayServer> {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024, perMessageDeflate: false });
  const handlers = new Map<string, RelayHandler>([["snapshot", (res, userId, cameraId) => void serveSnapshot(res, streams, userId, cameraId)]]);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0]!;
    const match = RELAY_PATH.exec(path);
    const handler = match ? handlers.get(match[3]!) : undefined;
    if (req.method !== "GET" || !handler) return void res.writeHead(404).end();
    if (!verifyRelayRequest(path, req.headers.authorization)) return void res.writeHead(401).end();
    const closed = new AbortController();
    res.once("close", () => closed.abort());
    handler(res, match![1]!.toLowerCase(), match![2]!.toLowerCase(), closed.signal);
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const path = (req.url ?? "").split("?")[0]!;
    const match = RELAY_PATH.exec(path);
    if (match?.[3] !== "live") return socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    if (!verifyRelayRequest(path, req.headers.authorization)) return socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    sockets.handleUpgrade(req, socket, head, (ws) => void serveRelay(ws, streams, match[1]!.toLowerCase(), match[2]!.toLowerCase()));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port, exclusive: true }, resolve);
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${bound}`;
  return {
    url,
    serve: (what, handler) => void handlers.set(what, handler),
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of sockets.clients) ws.terminate();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function serveRelay(ws: WebSocket, streams: LiveStreams, userId: string, cameraId: string) {
  ws.on("error", () => ws.terminate());
  let leave: (() => void) | undefined;
  ws.once("close", () => leave?.());
  try {
    // Only the owner serves: a process that lost or never had the camera would otherwise pull it as a second one.
    if (!ownsCamera(cameraId)) return ws.close(CLOSE_NOT_OWNER, "not the camera's owner");
    const source = await loadCameraSource(db(), userId, cameraId).catch(() => null);
    if (!source) return ws.close(4404, "Camera not found");
    if (ws.readyState !== ws.OPEN) return;
    leave = streams.watch(source, {
      send: (data, done) => ws.send(data, { binary: typeof data !== "string" }, done),
      close: (code, reason) => ws.close(code, reason),
    }).leave;
  } catch (error) {
    logger.warn({ err: error, cameraId }, "camera relay could not start");
    ws.close(1011, "relay failed");
  }
}
