// /api requests run their middlewares as one flat list ahead of Express's router (docs/decisions/0007-api-fast-path.md).
//
// Express walks every request through a router of ~16 layers: for each one it matches the layer's path, trims and
// restores req.url for mounted ones, wraps the call to check for a returned promise, and finally matches and decodes
// the catch-all route's splat. On a small API request (GET /api/auth/me, bench/foundation.ts) that walk cost about a
// tenth of the server's CPU. The middlewares an /api request meets on that walk are known when the app is made, so
// this runs exactly those, the same functions in the same order, then the request handler: every header, refusal
// (421, 403), log line, compression and error answer is the chain's own. Only the walk is gone.
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

/**
 * A middleware that answers /api requests by running `steps` in order (each calls `next` to go on, as in Express),
 * ending with the request handler. An error, from a `next(error)` or a throw, goes on down Express's own chain to the
 * app's error handler, as it would have; any other path goes on down the chain untouched.
 */
export function apiFastPath(steps: readonly Middleware[]): Middleware {
  const count = steps.length;
  return (req, res, next) => {
    if (!isFastApiPath(req.path)) return next();
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null) return next(error);
      // Past the last step (no handler answered): the chain's end, as Express would reach it.
      if (index === count) return next();
      const middleware = steps[index++]!;
      try {
        const result = middleware(req, res, step);
        // Express 5 passes a rejected promise from a middleware on as an error.
        if (result instanceof Promise) result.then(undefined, (reason: unknown) => next(reason ?? new Error("Rejected promise")));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
