// live.html is an overlay that streaming tools embed in their own pages, and the Insights lobby widget
// (/insights/widget/:id) goes on lobby screens' pages and in OBS: they alone may be framed, by the origins
// OVERLAY_FRAME_ANCESTORS lists (every other page keeps frame-ancestors 'none'). They show public data (the widget,
// what its signed link already shows) and have no controls, so framing them cannot be turned into clickjacking.
import type { NextFunction, Request, Response } from "express";

const OVERLAY_PATHS = new Set(["/api/scoreboard/live.html"]);
const OVERLAY_PREFIXES = ["/insights/widget/"];
const isOverlay = (path: string) => OVERLAY_PATHS.has(path) || OVERLAY_PREFIXES.some((prefix) => path.startsWith(prefix));

/** After the security headers: widens frame-ancestors on the overlay and keeps X-Frame-Options in agreement. */
export function overlayFraming(sources: readonly string[]) {
  const ancestors = `frame-ancestors ${sources.join(" ")}`;
  // X-Frame-Options knows only DENY and SAMEORIGIN: say the same where it can, and drop it where it cannot.
  const frameOptions = sources[0] === "'none'" ? "DENY" : sources.length === 1 && sources[0] === "'self'" ? "SAMEORIGIN" : null;
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isOverlay(req.path)) return next();
    const csp = res.getHeader("Content-Security-Policy");
    if (typeof csp === "string") res.setHeader("Content-Security-Policy", csp.replace(/frame-ancestors [^;]*/, ancestors));
    if (frameOptions) res.setHeader("X-Frame-Options", frameOptions);
    else res.removeHeader("X-Frame-Options");
    next();
  };
}
