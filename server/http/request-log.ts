// One JSON log line per request, with the request id also sent back as X-Request-Id: the lines pino-http wrote
// (same fields and messages), without its per-request work that nothing here uses (two child loggers, the
// req.log/res.log objects and their arrays, a serializer pass over the whole request). That work was about
// 90 µs a request, a tenth of what a small API request costs the server (bench/foundation.ts). A completed
// request's line is written as text in pino's own format, skipping pino's generic path (an object per line,
// the redaction walk, serialisation of every member): ~5 % of a small API request's CPU
// (docs/decisions/0007-api-fast-path.md).
import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { pino, type Logger } from "pino";

const { lsCacheSym, timeSym, chindingsSym, streamSym } = pino.symbols;

/**
 * Writes `{"level":30,"time":…,<bindings>,"req":{"id","method","url"},"res":{"statusCode"},"responseTime","msg":"request completed"}`
 * exactly as `logger.info({ req, res, responseTime }, "request completed")` does, for a logger with no hooks, mixin,
 * formatters or message prefix (server/logger.ts has none; request-log.test.ts compares the two). Redaction has
 * nothing to do: no redacted path is among these fields.
 */
export function writeCompletedLine(logger: Logger, id: string, method: string, url: string, statusCode: number, responseTime: number): void {
  if (!logger.isLevelEnabled("info")) return;
  const internals = logger as unknown as Record<symbol, unknown>;
  const level = (internals[lsCacheSym] as Record<number, string>)[logger.levels.values.info!]!;
  const time = (internals[timeSym] as () => string)();
  const stream = internals[streamSym] as { write: (line: string) => unknown };
  stream.write(
    `${level}${time}${internals[chindingsSym] as string},"req":{"id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"url":${JSON.stringify(url)}},"res":{"statusCode":${statusCode}},"responseTime":${responseTime},"msg":"request completed"}\n`,
  );
}

export function requestLog(logger: Logger, options: { ignore: (url: string) => boolean }) {
  return (req: Request, res: Response, next: NextFunction) => {
    const id = randomUUID();
    res.setHeader("X-Request-Id", id);
    (req as Request & { id: string }).id = id;
    if (options.ignore(req.url)) return next();
    const started = Date.now();
    // A response closes once: after it finished (Node emits "close" right after "finish"), or when the client left.
    res.on("close", () => {
      // The path only: query strings can carry tokens (and never the body).
      const url = (req.originalUrl || req.url).split("?")[0]!;
      const responseTime = Date.now() - started;
      if (res.statusCode < 500) return writeCompletedLine(logger, id, req.method, url, res.statusCode, responseTime);
      const entry = { req: { id, method: req.method, url }, res: { statusCode: res.statusCode }, responseTime };
      logger.info({ ...entry, err: new Error(`failed with status code ${res.statusCode}`) }, "request errored");
    });
    next();
  };
}
