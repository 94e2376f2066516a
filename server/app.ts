// The Node HTTP server: static files, compression, security headers, request logs, health probes,
// the React Router handler, and a clean start-up and shutdown around PostgreSQL.
import cluster from "node:cluster";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express from "express";
import { createRequestHandler as createReactRouterHandler, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "#db/embedded";
import { closeDb, db, initDb, isDatabaseReachable, migrate } from "#db/index";
import { stopListening } from "#db/listener";
import { migrations } from "#db/migrations/index";
import { sessionCache } from "./accounts/session-notices";
import { config } from "./config";
import { isDatabaseUnavailable } from "./http/api";
import { rejectUnknownHosts } from "./http/allowed-hosts";
import { markClientAddress, rememberingTrust } from "./http/client-ip";
import { overlayFraming } from "./http/overlay-framing";
import { problemBody } from "./http/problem";
import { compressWhenOffered } from "./http/compression";
import { apiFastPath, decodablePath, isFastApiPath, resumeFastPathError } from "./http/api-fast-path";
import { handleUpgrade } from "./http/camera-live-socket";
import { expressMessages } from "./http/express-messages";
import { createRequestHandler } from "./http/request-handler";
import { requestLog } from "./http/request-log";
import { prerenderedPages } from "./http/prerendered-pages";
import { rejectCrossSiteMutations, security, sharedPageSecurityHeaders } from "./http/security";
import { finishUnreadBody } from "./http/unread-body";
import { logger } from "./logger";
import { ffmpegBinary, ffmpegLogLine, ffmpegWarning } from "./cameras/stream/ffmpeg-binary";
import { closeCameraStreams, liveStreams } from "./cameras/stream/supervisor";
import { startRelayServer } from "./cameras/stream/relay";
import { listenForCameraChanges } from "./cameras/stream/changes";
import { startCameraPresence, stopCameraPresence } from "./cameras/stream/presence";
import { resetCameraStatusesAtStartUp } from "./cameras/service";
import { closePtzService } from "./ptz/service";
import { startAutomation, stopAutomation } from "./automation/tasks";
import { closeLiveStreams } from "./scoreboard/live-stream";
import { startChores } from "./chores";
import { stopOnSignals } from "./stop-signals";
import { runPrimary, runWorker } from "./cluster";

declare module "react-router" {
  interface AppLoadContext {
    /** Undefined for a page rendered once for everyone (server/http/prerendered-pages.ts). */
    cspNonce: string | undefined;
  }
}

export { runAdminCommand } from "./cli/admin";
export { runBlobsCommand } from "./cli/blobs";

const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");

/**
 * The server's request listener (the Express app, with the API fast path in front of it in production) and the
 * request and response classes to make the server with (./http/express-messages.ts).
 */
export function createApp(options: { vite?: ViteDevServer; build?: ServerBuild } = {}) {
  const { vite, build } = options;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config().trustProxy);
  app.set("trust proxy fn", rememberingTrust(app.get("trust proxy fn") as (address: string, hop: number) => boolean));

  // Every middleware an /api request meets, in the chain's order (server/http/api-fast-path.ts runs the same list).
  // Requests for hashed assets are noise in the log.
  const log = requestLog(logger, { ignore: (url) => url.startsWith("/assets/") });
  const compress = compressWhenOffered();
  const headers = security({ dev: Boolean(vite) });
  const framing = overlayFraming(config().overlayFrameAncestors);
  const handler = createRequestHandler({
    // In production hand over the build object itself: a function makes React Router rebuild its route
    // table on every request (right for development's hot reloading, several times slower otherwise).
    build: vite ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild> : build!,
    getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
    mode: vite ? "development" : "production",
    directApi: config().apiDirectDispatch,
  });
  // An error raised on the API fast path (returned below) resumes here, to reach the error handler at the end.
  app.use(resumeFastPathError);
  app.use(finishUnreadBody);

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    const ready = await isDatabaseReachable(db());
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "database unreachable" });
  });

  app.use(log);
  // The public site from memory, rendered once per origin, with what the middlewares below would add (development
  // renders every request, for hot reloading).
  if (build) {
    const render = createReactRouterHandler(build, "production");
    const renderShared = (request: Request) => render(request, { cspNonce: undefined });
    app.use(prerenderedPages({ render: renderShared, security: sharedPageSecurityHeaders(), checkHost: rejectUnknownHosts, publicUrl: config().publicUrl }));
  }
  app.use(compress);
  app.use(headers);
  // Before any page, file or API route (the health probes above answer any Host: load balancers use addresses).
  app.use(rejectUnknownHosts);
  app.use(framing);
  app.use(markClientAddress);

  if (vite) {
    app.use(vite.middlewares);
  } else {
    // Hashed file names never change content: cache for a year. Everything else briefly.
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    // Other public files (favicon, robots.txt…) have an extension; skip the file-system lookup for everything else.
    const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) && !isFastApiPath(req.path) ? publicFiles(req, res, next) : next()));
  }

  app.use(rejectCrossSiteMutations);
  app.all("/{*splat}", handler);

  app.use(answerError);
  // Production /api requests skip Express's set-up and its router's walk over the layers above (development has
  // Vite's in the way): the server's listener runs their list directly (server/http/api-fast-path.ts).
  const messages = expressMessages(app);
  if (vite || !config().apiFastPath) return { listener: app, messages };
  return {
    listener: apiFastPath(app, [finishUnreadBody, log, compress, headers, rejectUnknownHosts, framing, markClientAddress, rejectCrossSiteMutations, decodablePath, handler]),
    messages,
  };
}

/** The app's error handler: problem JSON for an error no route answered. */
function answerError(error: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) {
  if (res.headersSent) return next(error);
  // Express marks the caller's mistakes it finds before any route runs with a 4xx status: a path with a
  // malformed %-escape ("/api/cameras/%ZZ") fails to decode with 400. That is bad input, not our failure.
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    const detail = error instanceof URIError ? "The request URL has a malformed %-escape" : "The request could not be read";
    res
      .status(status)
      .type("application/problem+json")
      .send(JSON.stringify(problemBody(status, detail)));
    return;
  }
  logger.error({ err: error }, "unhandled request error");
  res
    .status(500)
    .type("application/problem+json")
    .send(JSON.stringify(problemBody(500, "Something went wrong on our side")));
}

const FIRST_MIGRATION = Object.keys(migrations)[0]!;

/** Connects to DATABASE_URL or starts the embedded server, then migrates (once per machine: here or in the cluster's primary). */
async function startDatabase(poolSize = config().database.poolSize): Promise<{ embedded: EmbeddedDatabase | undefined; url: string }> {
  const { database } = config();
  let embedded: EmbeddedDatabase | undefined;
  let url = database.url;
  if (!url) {
    logger.debug({ dir: database.embeddedDir, port: database.embeddedPort }, "starting embedded PostgreSQL");
    embedded = await startEmbeddedPostgres({
      dir: database.embeddedDir,
      port: database.embeddedPort,
      notice: (message) => logger.info(message),
      warn: (message) => logger.warn(message),
    });
    url = embedded.url;
  }
  initDb(url, poolSize);
  const applied = await migrate(db());
  // Worth a line when an upgrade changes an existing database; a new one getting its schema is no news.
  if (applied.length) logger[applied.includes(FIRST_MIGRATION) ? "debug" : "info"]({ applied }, "migrations applied");
  return { embedded, url };
}

/**
 * postgres.js 3.4.9 can leave a promise of a connection that died (PostgreSQL restarting, connections killed) with
 * no handler; Node's default would end the whole server for it (seen by `npm run test:faults`). Such a lost
 * connection is logged and the pool reconnects; any other unhandled rejection still ends the process as before.
 */
function surviveLostDatabaseConnections() {
  process.on("unhandledRejection", (reason) => {
    if (isDatabaseUnavailable(reason)) {
      logger.warn({ err: reason }, "a database connection was lost (unhandled in the driver); the pool reconnects");
      return;
    }
    throw reason;
  });
}

/**
 * One app process serving HTTP on an open database (initDb done): the job queue, the HTTP server and its sockets.
 * `stop` drains it all; the database and the process are the caller's.
 */
async function serve(options: { vite?: ViteDevServer; databaseUrl: string }): Promise<{ port: number; stop: () => Promise<void> }> {
  sessionCache(); // listens for session changes from now on, so the cache is on by the first request
  // Before anything here pulls a camera (monitors start with the queue): 'online' left by a crashed process is
  // stale; a camera another live process streams keeps its status (server/cameras/stream/presence.ts).
  const staleCameras = await resetCameraStatusesAtStartUp(db());
  if (staleCameras) logger.info({ cameras: staleCameras }, "IP camera statuses left by the last run reset to offline");
  // This process's relay of the cameras it owns, for the deployment's other processes (docs/decisions/0008-camera-owner.md).
  const relay = await startRelayServer(liveStreams, config().ffmpeg.relayHost, config().ffmpeg.relayPort);
  startCameraPresence(options.databaseUrl, relay.url, (cameraId) => liveStreams().ownershipLost(cameraId));
  // A camera changed through another process stops here too (its viewers reconnect to the new address).
  const stopCameraChanges = listenForCameraChanges(
    (cameraId) => liveStreams().forget(cameraId, { here: true }),
    () => liveStreams().resync(),
  );
  // The webhook and alert queue works inside this process, on the same database (its schema is made on first start).
  await startAutomation(options.databaseUrl, config().webhooks.concurrency);
  const build = options.vite ? undefined : ((await import("virtual:react-router/server-build")) as ServerBuild);
  const { listener, messages } = createApp({ vite: options.vite, build });
  // Several worker processes (server/cluster.ts) listen on one port: node:cluster shares it (and PORT=0 gives all the same one).
  const server: Server = createServer(messages, listener).listen(config().port, config().host);
  // WebSocket upgrades never reach Express: the live camera view is the only one (server/http/camera-live-socket.ts).
  server.on("upgrade", handleUpgrade);
  // Idle keep-alive sockets live longer than a proxy's or client's own idle timeout (60 s is the common
  // default), so the server is never the side that closes a socket a client is about to reuse — with
  // Node's 5 s default, a busy client could send a request into a socket closing under it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config().port;
  const stop = async () => {
    // Deliveries in flight get their whole timeout: one cut short would stay locked in the queue for hours.
    const queueStopped = stopAutomation();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await closeLiveStreams(); // open event streams would hold the server open until the forced exit
    stopCameraChanges();
    await closeCameraStreams(); // every camera's ffmpeg stopped and reaped, its viewers' sockets closed (server.close leaves upgraded sockets)
    await relay.close();
    await stopCameraPresence();
    await closePtzService(); // a camera mid-move must not keep turning once its watchdog is gone
    // Keep-alive sockets that just went idle (the ended streams' among them) close now; requests still
    // running get a few seconds to finish before their sockets are cut.
    server.closeIdleConnections();
    const grace = setTimeout(() => server.closeAllConnections(), 5_000);
    grace.unref();
    await closed;
    clearTimeout(grace);
    await queueStopped; // running deliveries finish (each bounded by WEBHOOK_TIMEOUT_MS); queued ones wait in PostgreSQL
    await stopListening(); // the session cache's and the scoreboard's LISTEN connection
  };
  return { port, stop };
}

export async function main(options: { vite?: ViteDevServer } = {}): Promise<void> {
  surviveLostDatabaseConnections();
  // Development (Vite's hot reloading) is always one process.
  if (cluster.isWorker) return runWorker(serve);
  if (!options.vite && config().webConcurrency > 1) return runPrimary(config().webConcurrency, startDatabase, startChores);
  const started = performance.now();
  const ffmpegFound = ffmpegBinary(); // probed while the database starts, named in the "listening" line
  const { embedded, url: databaseUrl } = await startDatabase();
  const serving = await serve({ vite: options.vite, databaseUrl });
  const chores = startChores(serving.port);
  stopOnSignals(async () => {
    await serving.stop();
    await chores.stop();
    await options.vite?.close();
    await closeDb();
    await embedded?.stop();
  });
  // SIGUSR2 restarts the workers of a cluster (server/cluster.ts); one process has none, and must not die of it.
  process.on("SIGUSR2", () => logger.warn("SIGUSR2 restarts worker processes, and this server runs one (WEB_CONCURRENCY=1): ignored"));
  const ffmpeg = await ffmpegFound;
  const ffmpegTrouble = ffmpegWarning(ffmpeg);
  if (ffmpegTrouble) logger.warn(ffmpegTrouble);
  logger.info({ port: serving.port, url: `http://localhost:${serving.port}`, startupMs: Math.round(performance.now() - started), ffmpeg: ffmpegLogLine(ffmpeg) }, "listening");
}
