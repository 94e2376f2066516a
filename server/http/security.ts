// Security middleware: the security headers (a CSP with a per-request nonce on pages, a fixed strict one on API
// data), and the CSRF origin check.
import { randomFillSync } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";
import { config } from "../config";
import { isFastApiPath } from "./api-fast-path";
import { problemBody } from "./problem";

// Nonces are cut from a pool of random bytes refilled 256 at a time: one call into the CSPRNG per request was
// a few per cent of a small API request's CPU (bench/foundation.ts), for 16 bytes.
const NONCE_BYTES = 16;
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

function nextNonce(): string {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  return noncePool.toString("base64", nonceOffset, (nonceOffset += NONCE_BYTES));
}

/** Stands in for the request's nonce while helmet's headers are worked out once. */
const NONCE_SLOT = "NONCE-SLOT-7f3a9c";

/** Helmet's headers for a request, worked out once by running helmet itself, with NONCE_SLOT where the nonce goes. */
function recordHelmetHeaders(options: { dev: boolean }): Array<[name: string, value: string]> {
  const recorded: Array<[name: string, value: string]> = [];
  const probe = {
    locals: { cspNonce: NONCE_SLOT },
    setHeader: (name: string, value: string | number | readonly string[]) => void recorded.push([name, String(value)]),
    removeHeader: () => {},
    getHeader: () => undefined,
  };
  let ran = false;
  helmetMiddleware(options)({ method: "GET", headers: {} } as Request, probe as unknown as Response, () => (ran = true));
  if (!ran) throw new Error("helmet did not finish synchronously; its headers cannot be precomputed");
  return recorded;
}

/**
 * Helmet's headers, worked out once by running helmet itself, as a function that sets them on a page's answer with
 * its nonce put in. Helmet rebuilds the same dozen headers (and the whole CSP string) on every request through a
 * chain of a dozen middlewares; only the nonce differs between requests. Same header names, values and order.
 */
function pageHeaderWriter(options: { dev: boolean }): (res: Response, nonce: string) => void {
  const headers = recordHelmetHeaders(options).map(([name, value]) => ({ name, parts: value.split(NONCE_SLOT) }));
  return (res, nonce) => {
    for (const { name, parts } of headers) res.setHeader(name, parts.length === 1 ? parts[0]! : parts.join(nonce));
  };
}

/** Helmet's headers with the nonce in `res.locals.cspNonce` (what a page gets from `security`; for tests that reproduce it). */
export function securityHeaders(options: { dev: boolean }) {
  const write = pageHeaderWriter(options);
  return (_req: Request, res: Response, next: NextFunction) => {
    write(res, res.locals.cspNonce as string);
    next();
  };
}

/**
 * The CSP of an answer that is data, not a page (JSON, problem JSON, images, event streams under /api): it loads
 * nothing and may be framed by nobody, stricter than any page's. Opened as a document (a JSON answer in a tab), it
 * runs no script and fetches nothing, so it needs no nonce.
 */
export const API_CSP = "default-src 'none';frame-ancestors 'none'";

/** The pages served under /api (HTML, with scripts under a nonce): every other answer there is data. */
export const API_PAGE_PATHS: ReadonlySet<string> = new Set(["/api/scoreboard/live.html"]);

/** Public feeds meant for other sites (OBS overlays, overlay tools, the Insights lobby widget): helmet's same-origin CORP would block them. */
const CROSS_ORIGIN_PATHS = ["/api/scoreboard/", "/insights/widget/"];
const isCrossOriginPath = (path: string) => CROSS_ORIGIN_PATHS.some((prefix) => path.startsWith(prefix));

const PERMISSIONS_POLICY = "camera=(self), microphone=(), geolocation=(), payment=(), usb=()";
const HSTS = "max-age=31536000; includeSubDomains";

/** An API data answer's headers as a flat [name, value, …] list: helmet's, with API_CSP, then Permissions-Policy. */
function apiHeaderBlock(options: { dev: boolean }, crossOrigin: boolean): string[] {
  const helmetHeaders = recordHelmetHeaders(options).filter(([name]) => name.toLowerCase() !== "content-security-policy");
  const block: Array<[string, string]> = [["Content-Security-Policy", API_CSP], ...helmetHeaders, ["Permissions-Policy", PERMISSIONS_POLICY]];
  if (block.some(([, value]) => value.includes(NONCE_SLOT))) throw new Error("a nonce is left in the API's headers");
  return block.flatMap(([name, value]) => [name, crossOrigin && name.toLowerCase() === "cross-origin-resource-policy" ? "cross-origin" : value]);
}

/**
 * Every security header of an answer, in one step. A page gets helmet's headers with a fresh CSP nonce (in
 * `res.locals.cspNonce`, for its scripts), Permissions-Policy and, over HTTPS, HSTS. An answer under /api that is
 * data gets one block worked out when the app starts: the same headers, but API_CSP instead of the page's policy,
 * and no nonce (nothing on it runs a script). The CORP of the public feeds is cross-origin, on pages and data alike.
 */
export function security(options: { dev: boolean }) {
  const writePage = pageHeaderWriter(options);
  const api = apiHeaderBlock(options, false);
  const apiCrossOrigin = apiHeaderBlock(options, true);
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    if (isFastApiPath(path) && !API_PAGE_PATHS.has(path)) {
      const block = isCrossOriginPath(path) ? apiCrossOrigin : api;
      for (let i = 0; i < block.length; i += 2) res.setHeader(block[i]!, block[i + 1]!);
    } else {
      const nonce = nextNonce();
      res.locals.cspNonce = nonce;
      writePage(res, nonce);
      res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
      if (isCrossOriginPath(path)) res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
    }
    if (req.secure) res.setHeader("Strict-Transport-Security", HSTS);
    next();
  };
}

/**
 * Every header `security` sets on a page whose bytes are the same for everyone (server/http/prerendered-pages.ts),
 * for setting in one go: the CSP has no nonce, and so no 'strict-dynamic' either (which would make browsers ignore
 * 'self' and run no script at all); such a page's one external module script, and what it imports, load under
 * 'self'. HSTS is `hsts`, for requests over HTTPS.
 */
export function sharedPageSecurityHeaders(): { headers: Array<[name: string, value: string]>; hsts: [name: string, value: string] } {
  const headers = recordHelmetHeaders({ dev: false }).map(([name, value]): [string, string] =>
    name.toLowerCase() === "content-security-policy" ? [name, value.replace(` 'nonce-${NONCE_SLOT}'`, "").replace(" 'strict-dynamic'", "")] : [name, value],
  );
  if (headers.some(([, value]) => value.includes(NONCE_SLOT))) throw new Error("a nonce is left in the shared pages' headers");
  return { headers: [...headers, ["Permissions-Policy", PERMISSIONS_POLICY]], hsts: ["Strict-Transport-Security", HSTS] };
}

/** Helmet as configured for Framewise (exported for the test that checks the precomputed headers against it). */
export function helmetMiddleware(options: { dev: boolean }) {
  return helmet({
    contentSecurityPolicy: options.dev
      ? false
      : {
          useDefaults: false,
          directives: {
            "default-src": ["'self'"],
            // 'wasm-unsafe-eval' lets the image-core worker compile its WASM module (and nothing else).
            "script-src": ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce as string}'`, "'strict-dynamic'", "'wasm-unsafe-eval'"],
            "style-src": ["'self'", "'unsafe-inline'"],
            "img-src": ["'self'", "data:", "blob:"],
            "media-src": ["'self'", "blob:", "mediastream:"],
            "connect-src": ["'self'"],
            "font-src": ["'self'", "data:"],
            "worker-src": ["'self'", "blob:"],
            "object-src": ["'none'"],
            "base-uri": ["'self'"],
            "form-action": ["'self'"],
            "frame-ancestors": ["'none'"],
          },
        },
    // HSTS only means something over HTTPS; browsers ignore it on plain HTTP, and helmet sets it only when we say so.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xContentTypeOptions: true,
  });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether a browser's Origin header names this site: one of `own` (as the request reached us), PUBLIC_URL, or ALLOWED_ORIGINS. Also the live WebSocket's check. */
export function isOwnOrigin(origin: string, own: readonly string[]): boolean {
  const publicUrl = config().publicUrl ? new URL(config().publicUrl!).origin : undefined;
  return own.includes(origin) || origin === publicUrl || config().allowedOrigins.includes(origin);
}

/**
 * CSRF defence for every mutation: the browser's Origin (or, failing that, Sec-Fetch-Site) must name this
 * site. Requests without either header come from non-browser clients, which carry no ambient cookies risk.
 */
export function rejectCrossSiteMutations(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method)) return next();
  const origin = req.get("origin");
  const fetchSite = req.get("sec-fetch-site");
  let allowed: boolean;
  if (origin) {
    allowed = isOwnOrigin(origin, [`${req.protocol}://${req.get("host") ?? ""}`]);
  } else {
    allowed = !fetchSite || fetchSite === "same-origin" || fetchSite === "none";
  }
  if (allowed) return next();
  res
    .status(403)
    .type("application/problem+json")
    .send(JSON.stringify(problemBody(403, "Cross-site request refused: this form or call must come from Framewise itself.")));
}
