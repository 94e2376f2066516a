// The public site (six pages, robots.txt, sitemap.xml) as prerendered files: they are the same for every visitor
// but name the site's origin (canonical URLs, sitemap), which only a request or PUBLIC_URL knows, so each is
// rendered once per origin through React Router itself, as an anonymous visitor with no toast, and kept in memory
// with its gzip and brotli forms and ETags. Requests are then answered from memory ahead of React Router: no
// session lookup, no flash cookie, no render. A request carrying a toast (the flash cookie, right after signing in
// or up) still takes the dynamic path, which shows it. Mounted right after the request log, these answers skip the
// per-request middlewares (nonce, helmet, compression, host check as a separate step) and carry what they would
// have set, worked out once; tests/integration/prerendered-pages.test.ts compares them with the dynamic path.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { FLASH_COOKIE } from "./flash";
import { requestOrigin } from "./request-handler";

/** The paths served prerendered: every route here must render the same bytes for every visitor of one origin. */
export const PRERENDERED_PATHS: readonly string[] = ["/", "/pricing", "/downloads", "/eula", "/about", "/contact", "/robots.txt", "/sitemap.xml"];

/**
 * Origins kept (without PUBLIC_URL, any IP address and port the request names is one). Once that many are kept,
 * further origins are rendered per request as before: evicting instead would let a stream of made-up Host headers
 * make the server render and compress (brotli at its best, ~0.1 s a page) again and again.
 */
export const MAX_ORIGINS = 16;
/** compression()'s threshold: smaller bodies go uncompressed on either path. */
const COMPRESS_MIN_BYTES = 1024;
/** isbot() says yes to it, so the document is rendered whole (entry.server.tsx waits for everything for bots). */
const RENDER_AGENT = "Framewise-prerender bot";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

interface Variant {
  body: Buffer;
  etag: string;
  /** Every header of a 200 answer with this body, in writeHead's flat form. */
  headers: string[];
  /** The same for a 304: no body, so no Content-Type, -Length or -Encoding. */
  notModified: string[];
}

interface Page {
  variants: { br?: Variant; gzip?: Variant; identity: Variant };
  /** Pages show today's date (the EULA) and year (the footer): render again after local midnight. */
  expiresAt: number;
}

type Slot = Page | Promise<Page | null>;

const flashPattern = new RegExp(`(?:^|;)\\s*${FLASH_COOKIE}=`);

export function prerenderedPages(options: {
  /** React Router's handler for a web Request (the whole document pipeline, root loader included). */
  render: (request: Request) => Promise<Response>;
  /** What the security middlewares would set, without a nonce (sharedPageSecurityHeaders()). */
  security: { headers: Array<[name: string, value: string]>; hsts: [name: string, value: string] };
  /** The host check (rejectUnknownHosts): it answers 421 itself or calls on. */
  checkHost: (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => void;
  /** PUBLIC_URL: when set, the one origin every page names. */
  publicUrl?: string;
  now?: () => number;
}) {
  const paths = new Set(PRERENDERED_PATHS);
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  const now = options.now ?? Date.now;
  const byOrigin = new Map<string, Map<string, Slot>>();

  function prerender(origin: string, path: string): Promise<Page | null> {
    let slots = byOrigin.get(origin);
    if (!slots) {
      if (byOrigin.size >= MAX_ORIGINS) return Promise.resolve(null);
      slots = new Map();
      byOrigin.set(origin, slots);
    }
    const pending = renderPage(options.render, options.security.headers, origin, path, now()).then(
      (page) => {
        if (slots.get(path) === pending) {
          if (page) slots.set(path, page);
          else slots.delete(path);
        }
        return page;
      },
      (error: unknown) => {
        if (slots.get(path) === pending) slots.delete(path);
        throw error;
      },
    );
    slots.set(path, pending);
    return pending;
  }

  function send(req: ExpressRequest, res: ExpressResponse, page: Page) {
    const variant = chooseVariant(req, page);
    if (req.secure) res.setHeader(...options.security.hsts);
    if (req.headers["if-none-match"]) {
      res.setHeader("ETag", variant.etag);
      if (req.fresh) {
        res.writeHead(304, variant.notModified).end();
        return;
      }
    }
    res.writeHead(200, variant.headers);
    if (req.method === "HEAD") res.end();
    else res.end(variant.body);
  }

  function serve(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    const origin = publicOrigin ?? requestOrigin(req);
    const slot = byOrigin.get(origin)?.get(req.path);
    if (slot && !(slot instanceof Promise) && slot.expiresAt > now()) return send(req, res, slot);
    (slot instanceof Promise ? slot : prerender(origin, req.path)).then(
      (page) => (page ? send(req, res, page) : next()),
      (error: unknown) => next(error),
    );
  }

  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !paths.has(req.path)) return next();
    const cookies = req.headers.cookie;
    if (cookies && flashPattern.test(cookies)) return next();
    options.checkHost(req, res, () => serve(req, res, next));
  };
}

/** Renders one page through React Router as an anonymous visitor would see it; null when it is not a plain 200 to keep. */
async function renderPage(
  render: (request: Request) => Promise<Response>,
  security: Array<[name: string, value: string]>,
  origin: string,
  path: string,
  at: number,
): Promise<Page | null> {
  const response = await render(new Request(new URL(path, origin), { headers: { "user-agent": RENDER_AGENT, accept: "text/html,*/*" } }));
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200 || response.headers.has("set-cookie")) return null;
  const own = [...response.headers.entries()].filter(([name]) => !["content-length", "content-encoding", "etag", "transfer-encoding", "vary"].includes(name));
  // compression() says Vary: Accept-Encoding on every compressible answer, compressed or not.
  const common = [...own, ...security, ["Vary", "Accept-Encoding"]];
  const withoutBody = common.filter(([name]) => name !== "content-type");
  const tag = createHash("sha256").update(body).digest("base64url").slice(0, 27);
  const variant = (bytes: Buffer, etag: string, encoding: string | null): Variant => ({
    body: bytes,
    etag,
    headers: [...common, ["ETag", etag], ...(encoding ? [["Content-Encoding", encoding]] : []), ["Content-Length", String(bytes.length)]].flat(),
    notModified: [...withoutBody, ["ETag", etag]].flat(),
  });
  const variants: Page["variants"] = { identity: variant(body, `"${tag}"`, null) };
  if (body.length >= COMPRESS_MIN_BYTES) {
    const [gzipped, brotli] = await Promise.all([
      gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
      brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    ]);
    variants.gzip = variant(gzipped, `"${tag}-gz"`, "gzip");
    variants.br = variant(brotli, `"${tag}-br"`, "br");
  }
  const day = new Date(at);
  return { variants, expiresAt: new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1).getTime() };
}

/** Brotli, else gzip, else the bytes as they are, as the request's Accept-Encoding allows. */
function chooseVariant(req: ExpressRequest, page: Page): Variant {
  const { br, gzip: gzipped, identity } = page.variants;
  if (!br || !gzipped || !req.headers["accept-encoding"]) return identity;
  const encoding = req.acceptsEncodings("br", "gzip", "identity");
  return encoding === "br" ? br : encoding === "gzip" ? gzipped : identity;
}
