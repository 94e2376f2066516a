// /api requests run their middlewares as one flat list, in front of Express (docs/decisions/0007-api-fast-path.md).
//
// Express sets up every request (prototypes, a final handler) and walks it through a router of ~16 layers: for each
// one it matches the layer's path, trims and restores req.url for mounted ones, wraps the call to check for a
// returned promise, and finally matches and decodes the catch-all route's splat. On a small API request
// (GET /api/auth/me, bench/foundation.ts) that was over a tenth of the server's CPU. The middlewares an /api request
// meets on that walk are known when the app is made, so this runs exactly those, the same functions in the same
// order, then the request handler: every header, refusal (421, 403), log line, compression and error answer is the
// chain's own (an error is handed back to the app, to its error handler). Only the set-up and the walk are gone.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";

export type Middleware = (req: Request, res: Response, next: NextFunction) => unknown;

/** The requests taken: what the chain sends to the request handler under /api (the public-file lookup skips "/api/…" only). */
export function isFastApiPath(path: string): boolean {
  return path.startsWith("/api/") || path === "/api";
}

/**
 * The catch-all route's one effect besides calling the handler: Express decodes the path's segments to match its
 * splat, and a malformed %-escape fails that with a 400 URIError (answered by the app's error handler).
 */
export function decodablePath(req: Request, _res: Response, next: NextFunction) {
  const path = req.path;
  if (path.includes("%") && !decodes(path)) return next(Object.assign(new URIError(`Failed to decode param '${path}'`), { status: 400 }));
  next();
}

/** Whether a path's %-escapes decode. The result is used: a bundler drops a bare decodeURIComponent call as free of effects. */
function decodes(text: string): boolean {
  try {
    return typeof decodeURIComponent(text) === "string";
  } catch {
    return false;
  }
}

/** Runs `steps` in order (each calls `next` to go on, as in Express); `done` gets the first error, or nothing past the last step. */
function runSteps(steps: readonly Middleware[], req: Request, res: Response, done: (error?: unknown) => void): void {
  let index = 0;
  const step = (error?: unknown): void => {
    if (error !== undefined && error !== null) return done(error);
    if (index === steps.length) return done();
    const middleware = steps[index++]!;
    try {
      const result = middleware(req, res, step);
      // Express 5 passes a rejected promise from a middleware on as an error.
      if (result instanceof Promise) result.then(undefined, (reason: unknown) => done(reason ?? new Error("Rejected promise")));
    } catch (thrown) {
      done(thrown);
    }
  };
  step();
}

const PENDING_ERROR = Symbol("an error raised on the API fast path");
type WithPending = Request & { [PENDING_ERROR]?: unknown };

/**
 * The app's first middleware, for the fast path's errors: a request that failed there is handed to the app with its
 * error, which this raises again, so it goes down Express's chain to the app's error handler (and Express's final
 * handler after it) exactly as an error raised in the chain does. Other requests pass straight on.
 */
export function resumeFastPathError(req: Request, _res: Response, next: NextFunction) {
  const error = (req as WithPending)[PENDING_ERROR];
  if (error === undefined) return next();
  delete (req as WithPending)[PENDING_ERROR];
  next(error);
}

/**
 * The server's request listener: an /api request runs `steps` (the chain's middlewares, ending with the request
 * handler) with what Express's app.handle sets up before its router (the prototypes that give req.ip, res.status…,
 * the cross-references, res.locals, originalUrl); anything else, and any error, goes to the Express app.
 */
export function apiFastPath(app: ((req: IncomingMessage, res: ServerResponse) => void) & { request: object; response: object }, steps: readonly Middleware[]) {
  return (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const url = incoming.url ?? "";
    const query = url.indexOf("?");
    // An absolute-form or otherwise odd request target goes the long way (Express parses it).
    if (!isFastApiPath(query === -1 ? url : url.slice(0, query))) return app(incoming, outgoing);
    const req = incoming as Request;
    const res = outgoing as Response;
    req.res = res;
    res.req = req;
    // No change for a server made with expressMessages(app) (server/app.ts): they were made with these prototypes.
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    res.locals = Object.create(null) as Response["locals"];
    req.originalUrl = url;
    req.baseUrl = "";
    runSteps(steps, req, res, (error) => {
      // No step answered: never the case (the request handler always answers or fails), but not silently.
      (req as WithPending)[PENDING_ERROR] = error ?? new Error("No step of the API fast path answered");
      app(req, res);
    });
  };
}
