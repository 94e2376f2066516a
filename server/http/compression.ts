// Response compression (the `compression` package) for the requests that offer an encoding. Without
// Accept-Encoding nothing is ever compressed, yet the package wraps every response it meets (write, end, on and
// writeHead replaced, a close listener, half a dozen closures): ~15 % of the CPU of a small API request from a
// client that offers none (bench/foundation.ts, docs/decisions/0007-api-fast-path.md). Such a request gets what
// the package would give it: the answer as it is, with `Vary: Accept-Encoding` when the answer is of a compressible
// type that may be transformed (the representation chosen depends on that header, for the next client).
import compression from "compression";
import type { NextFunction, Request, Response } from "express";

// As the package reads Cache-Control.
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;

export function compressWhenOffered(options: compression.CompressionOptions = {}) {
  const compress = compression(options);
  const filter = options.filter ?? compression.filter;
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.headers["accept-encoding"] !== undefined) return compress(req, res, next);
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      res.writeHead = writeHead;
      const [status, headers] = headersOfWriteHead(this, args);
      const cacheControl = this.getHeader("Cache-Control");
      if (filter(req, this) && !(typeof cacheControl === "string" && NO_TRANSFORM.test(cacheControl))) this.vary("Accept-Encoding");
      return (writeHead as (...args: unknown[]) => Response).apply(this, [status, ...headers]);
    } as Response["writeHead"];
    next();
  };
}

/**
 * writeHead(status[, reason][, headers]) as the package sees it (on-headers): headers given in the call are set on
 * the response first, so the decision reads them; what remains to pass on is the status and the reason.
 */
function headersOfWriteHead(res: Response, args: unknown[]): [status: unknown, rest: unknown[]] {
  const [status, second, third] = args;
  const reason = typeof second === "string" ? [second] : [];
  const headers = typeof second === "string" ? third : second;
  if (Array.isArray(headers)) {
    if (headers.length && Array.isArray(headers[0])) for (const [name, value] of headers as Array<[string, string]>) res.appendHeader(name, value);
    else for (let i = 0; i < headers.length; i += 2) res.appendHeader(headers[i] as string, headers[i + 1] as string);
  } else if (headers && typeof headers === "object") {
    for (const [name, value] of Object.entries(headers)) if (name) res.setHeader(name, value as string);
  }
  return [status, reason];
}
