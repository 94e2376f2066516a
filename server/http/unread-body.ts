// A request whose body the app did not read to the end (a 17 MB upload refused at once with 404, 413 or
// 415) must not leave its connection open: React Router's adapter has turned the body into a web stream
// that nobody pulls, so Node never drains the rest, and the next request a browser sends on that
// keep-alive socket would wait behind the unread bytes until the headers timeout (66 s). Such responses
// say `Connection: close`, so Node ends the socket once the answer is out and the client opens a new one.
import type { NextFunction, Request, Response } from "express";

export function closeAfterUnreadBody(req: Request, res: Response, next: NextFunction) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
    if (!req.complete && !res.headersSent) res.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  } as Response["writeHead"];
  next();
}
