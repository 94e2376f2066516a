// The composition root: what one app process is made of, built here in an explicit order and handed down (to
// route handlers through the request's load context, to the job queue's tasks through their task list), and
// stopped in the reverse order. Nothing else builds these parts; a test that runs them in its own process builds
// its own with createServices (docs/decisions/0012-composition-root.md).
import { createServer as createHttpServer, type Server } from "node:http";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { db } from "#db/index";
import { stopListening } from "#db/listener";
import { sessionCache } from "./accounts/session-notices";
import { config } from "./config";
import { upgradeHandler } from "./http/camera-live-socket";
import { createApp } from "./http/express-app";
import { logger } from "./logger";
import { createLiveStreams } from "./cameras/stream/supervisor";
import { startRelayServer } from "./cameras/stream/relay";
import { listenForCameraChanges } from "./cameras/stream/changes";
import { startCameraPresence, stopCameraPresence } from "./cameras/stream/presence";
import { resetCameraStatusesAtStartUp } from "./cameras/service";
import { cameraTargetPolicy } from "./net/camera-target";
import { PtzService } from "./ptz/service";
import { createMailer } from "./alerts/transports";
import { createVision } from "./vision/service";
import { openBlobStore } from "./storage/blob-store";
import { startAutomation } from "./automation/tasks";
import { registerListeners } from "./automation/listeners";
import { closeLiveStreams } from "./scoreboard/live-stream";
import { createLocalVisionPipelines } from "./local-vision/pipeline/pipelines";
import type { Services } from "./services";

/** The long-lived parts, each from the configuration and the parts before it. */
export function createServices(): Services {
  const settings = config();
  // PTZ_ALLOWED_NETWORKS, PTZ_ALLOWED_PORTS and PTZ_IDLE_SECONDS.
  const ptz = new PtzService({ targets: cameraTargetPolicy(), idleMs: settings.ptz.idleMs });
  // The camera streams this process pulls (one ffmpeg per camera, shared by viewers, snapshots and monitors).
  const streams = createLiveStreams();
  // MOONDREAM_*: one pace per key for every AI call of this process (its slots are booked in PostgreSQL).
  const vision = createVision(db);
  // BLOB_STORE: where image bytes go (the filesystem, or an S3 bucket).
  const blobs = openBlobStore(settings.blobStore);
  const mailer = createMailer();
  // The watched IP cameras' always-on local vision (started by createServer once this process has its presence).
  const pipelines = createLocalVisionPipelines({ streams, blobs, vision, ptz });
  return { ptz, streams, vision, blobs, mailer, pipelines };
}

/**
 * One app process serving HTTP on an open database (initDb done): the job queue, the HTTP server and its sockets.
 * `stop` drains it all; the database and the process are the caller's.
 */
export async function createServer(options: { vite?: ViteDevServer; databaseUrl: string }): Promise<{ port: number; services: Services; stop: () => Promise<void> }> {
  // First: every domain event a request or a job emits goes to the listeners, in their one list's order (webhooks,
  // then alerts: server/automation/listeners.ts); emit throws until they are registered.
  registerListeners();
  const services = createServices();
  sessionCache(); // listens for session changes from now on, so the cache is on by the first request
  // Before anything here pulls a camera (monitors start with the queue): 'online' left by a crashed process is
  // stale; a camera another live process streams keeps its status (server/cameras/stream/presence.ts).
  const staleCameras = await resetCameraStatusesAtStartUp(db());
  if (staleCameras) logger.info({ cameras: staleCameras }, "IP camera statuses left by the last run reset to offline");
  // This process's relay of the cameras it owns, for the deployment's other processes (docs/decisions/0008-camera-owner.md).
  const relay = await startRelayServer(services.streams, config().ffmpeg.relayHost, config().ffmpeg.relayPort);
  startCameraPresence(options.databaseUrl, relay.url, (cameraId) => services.streams.ownershipLost(cameraId));
  // A camera changed through another process stops here too (its viewers reconnect to the new address).
  const stopCameraChanges = listenForCameraChanges(
    (cameraId) => services.streams.forget(cameraId, { here: true }),
    () => services.streams.resync(),
  );
  // The webhook and alert queue works inside this process, on the same database (its schema is made on first start).
  const automation = await startAutomation({
    connectionString: options.databaseUrl,
    concurrency: config().webhooks.concurrency,
    ptz: services.ptz,
    frames: services.streams,
    vision: services.vision,
    blobs: services.blobs,
    mailer: services.mailer,
  });
  // Watched cameras no live process runs are taken here (each runs once across the deployment).
  services.pipelines.start(relay);
  const build = options.vite ? undefined : ((await import("virtual:react-router/server-build")) as ServerBuild);
  const { listener, messages } = createApp({ vite: options.vite, build, services });
  // Several worker processes (server/cluster.ts) listen on one port: node:cluster shares it (and PORT=0 gives all the same one).
  const server: Server = createHttpServer(messages, listener).listen(config().port, config().host);
  // WebSocket upgrades never reach Express: the live camera view is the only one (server/http/camera-live-socket.ts).
  server.on("upgrade", upgradeHandler(services.streams));
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
    const queueStopped = automation.stop();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await closeLiveStreams(); // open event streams would hold the server open until the forced exit
    stopCameraChanges();
    await services.pipelines.close(); // the pipelines' lock released, so another process takes their cameras at once
    await services.streams.close(); // every camera's ffmpeg stopped and reaped, its viewers' sockets closed (server.close leaves upgraded sockets)
    await relay.close();
    await stopCameraPresence();
    await services.ptz.stopAndCloseAll(); // a camera mid-move must not keep turning once its watchdog is gone
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
  return { port, services, stop };
}
