// Security middleware: CSP with a per-request nonce and the other headers, and the CSRF origin check.
import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";
import { config } from "../config";
import { problemBody } from "./problem";

export function cspNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
}

export function securityHeaders(options: { dev: boolean }) {
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

/** Public feeds meant for other sites (OBS overlays, overlay tools): helmet's same-origin CORP would block them. */
const CROSS_ORIGIN_PATHS = ["/api/scoreboard/"];

export function crossOriginResources(req: Request, res: Response, next: NextFunction) {
  if (CROSS_ORIGIN_PATHS.some((prefix) => req.path.startsWith(prefix))) res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
  next();
}

export function permissionsAndHsts(req: Request, res: Response, next: NextFunction) {
  res.setHeader("Permissions-Policy", "camera=(self), microphone=(), geolocation=(), payment=(), usb=()");
  if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

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
    const own = `${req.protocol}://${req.get("host") ?? ""}`;
    const extra = config().allowedOrigins;
    const publicUrl = config().publicUrl ? new URL(config().publicUrl!).origin : undefined;
    allowed = origin === own || origin === publicUrl || extra.includes(origin);
  } else {
    allowed = !fetchSite || fetchSite === "same-origin" || fetchSite === "none";
  }
  if (allowed) return next();
  res
    .status(403)
    .type("application/problem+json")
    .send(JSON.stringify(problemBody(403, "Cross-site request refused: this form or call must come from Framewise itself.")));
}
