// Response compression (the `compression` package), set up only for answers it can compress. The package wraps every
// response it meets (write, end, on and writeHead replaced, a close listener, half a dozen closures): ~20 µs of a
// small API request's CPU (bench/foundation.ts, docs/decisions/0007-api-fast-path.md), spent even where it never
// compresses: a request that offers no encoding, or an answer below its threshold (most API answers). Here a request
// without Accept-Encoding never meets it, and for the others it is set up only when the answer starts otherwise than
// as one small piece: `end()` with a body under the threshold (or a Content-Length under it) is written as it is.
// Either way the answer is what the package would give: unchanged, with `Vary: Accept-Encoding` when it is of a
// compressible type that may be transformed (the representation chosen depends on that header, for the next client).
import compression from "compression";
import type { NextFunction, Request, Response } from "express";

// As the package reads Cache-Control.
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;
/** The package's default threshold: smaller answers are never compressed. */
const THRESHOLD = 1024;

type Method = (this: Response, ...args: unknown[]) => unknown;

export function compressWhenOffered(options: Omit<compression.CompressionOptions, "threshold"> = {}) {
  const compress = compression(options);
  const filter = options.filter ?? compression.filter;
  /** The package's Vary: a compressible type, not marked no-transform. */
  const vary = (req: Request, res: Response) => {
    const cacheControl = res.getHeader("Cache-Control");
    if (filter(req, res) && !(typeof cacheControl === "string" && NO_TRANSFORM.test(cacheControl))) res.vary("Accept-Encoding");
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.headers["accept-encoding"] === undefined) {
      beforeHeaders(res, () => vary(req, res));
      headersBeforeEnd(res);
      return next();
    }
    const { write, end, writeHead } = res as unknown as Record<"write" | "end" | "writeHead", Method>;
    const own = res as unknown as Record<"write" | "end" | "writeHead" | "flush", Method>;
    const restore = () => {
      own.write = write;
      own.end = end;
      own.writeHead = writeHead;
    };
    const setUp = () => {
      restore();
      compress(req, res, () => {});
    };
    own.end = function (...args) {
      const [chunk, encoding] = args;
      if (!this.headersSent && (chunk == null || typeof chunk === "string" || chunk instanceof Uint8Array)) {
        // The package's test: the declared length, or else this body's, below the threshold.
        const declared = this.getHeader("Content-Length");
        const length = declared
          ? undefined
          : chunk == null
            ? 0
            : typeof chunk === "string"
              ? Buffer.byteLength(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : undefined)
              : chunk.byteLength;
        if (Number(declared) < THRESHOLD || (length !== undefined && length < THRESHOLD)) {
          restore();
          beforeHeaders(this, () => vary(req, this));
          this.writeHead(this.statusCode); // as the package does (see headersBeforeEnd)
          return end.apply(this, args);
        }
      }
      setUp();
      return (this.end as Method).apply(this, args);
    };
    own.write = function (...args) {
      setUp();
      return (this.write as Method).apply(this, args);
    };
    // writeHead directly, or flushHeaders (an event stream): the answer starts before its size is known.
    own.writeHead = function (...args) {
      setUp();
      return (this.writeHead as Method).apply(this, args);
    };
    // The package's, for code that flushes before writing; it puts its own in place when set up.
    own.flush = () => {};
    next();
  };
}

/**
 * The package writes the headers itself when an answer ends before they are out, so Node never sees the whole body
 * at once: such an answer without a Content-Length goes chunked rather than with one Node works out. Kept, so an
 * answer's framing does not depend on whether its request offered an encoding.
 */
function headersBeforeEnd(res: Response): void {
  const end = res.end;
  res.end = function (this: Response, ...args: unknown[]) {
    res.end = end;
    if (!this.headersSent) this.writeHead(this.statusCode);
    return (end as (...args: unknown[]) => Response).apply(this, args);
  } as Response["end"];
}

/** Runs `decide` once, just before the response's headers are written (on-headers, as the package uses it). */
function beforeHeaders(res: Response, decide: () => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    res.writeHead = writeHead;
    const [status, headers] = headersOfWriteHead(this, args);
    decide();
    return (writeHead as (...args: unknown[]) => Response).apply(this, [status, ...headers]);
  } as Response["writeHead"];
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
