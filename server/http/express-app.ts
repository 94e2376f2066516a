// The server's request listener: static files, compression, security headers, request logs, health probes, the
// React Router handler (with the API fast path in front of it in production) and the error handler at the end.
import path from "node:path";
import { fileURLToPath } from "node:url";
import express from "express";
import { createRequestHandler as createReactRouterHandler, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { db, isDatabaseReachable } from "#db/index";
import { config } from "../config";
import { logger } from "../logger";
import type { Services } from "../services";
import { rejectUnknownHosts } from "./allowed-hosts";
import { markClientAddress, rememberingTrust } from "./client-ip";
import { overlayFraming } from "./overlay-framing";
import { problemBody } from "./problem";
import { compressWhenOffered } from "./compression";
import { apiFastPath, decodablePath, isFastApiPath, resumeFastPathError } from "./api-fast-path";
import { expressMessages } from "./express-messages";
import { createRequestHandler } from "./request-handler";
import { requestLog } from "./request-log";
import { prerenderedPages } from "./prerendered-pages";
import { metrics } from "./metrics";
import { rejectCrossSiteMutations, security, sharedPageSecurityHeaders } from "./security";
import { finishUnreadBody } from "./unread-body";

// Relative to the bundle (build/server/index.js), not to this source file: production serves only from a build.
const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");

/**
 * The server's request listener (the Express app, with the API fast path in front of it in production) and the
 * request and response classes to make the server with (./http/express-messages.ts).
 */
export function createApp(options: { vite?: ViteDevServer; build?: ServerBuild; services: Services }) {
  const { vite, build, services } = options;
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
    getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string, services }),
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

  // Prometheus scrapes by address too; the bearer token is its check (server/http/metrics.ts).
  app.get("/metrics", (req, res, next) => {
    metrics(req, res).catch(next);
  });

  app.use(log);
  // The public site from memory, rendered once per origin, with what the middlewares below would add (development
  // renders every request, for hot reloading).
  if (build) {
    const render = createReactRouterHandler(build, "production");
    const renderShared = (request: Request) => render(request, { cspNonce: undefined, services });
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
