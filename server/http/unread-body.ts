// A request whose body the app did not read to the end (a 17 MB upload refused at once with 404, 413 or
// 415): React Router's adapter has turned the body into a web stream nobody pulls, so Node never drains
// the rest, and the next request on that keep-alive socket would wait behind the unread bytes until the
// headers timeout (66 s). Once the answer is out, the rest is read and thrown away, so the socket serves
// the next request and the client, still sending, is not cut off mid-upload (EPIPE before it could read
// the answer). A body of unknown (chunked) or very large declared length is not worth reading: its answer
// says `Connection: close` instead.
import type { NextFunction, Request, Response } from "express";

/** Declared bodies up to this size are drained after an early answer; larger ones close the connection. */
const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;

export function finishUnreadBody(req: Request, res: Response, next: NextFunction) {
  const declared = Number(req.headers["content-length"] ?? NaN);
  // A request without a body (a GET) has nothing to drain, and keeps its connection; it may not be complete yet while
  // an answer is written at once, in the same tick (server/http/prerendered-pages.ts), and Node itself discards what
  // nobody read of it once the answer is out.
  const body = req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] !== undefined && declared !== 0);
  if (!body) return next();
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
    if (!req.complete && !res.headersSent && !(declared <= DRAIN_LIMIT_BYTES)) res.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  } as Response["writeHead"];
  res.on("finish", () => {
    if (req.complete) return;
    req.removeAllListeners("data"); // the unpulled web stream's: nobody will read what it would queue
    req.resume();
  });
  next();
}
