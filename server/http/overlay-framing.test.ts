// OVERLAY_FRAME_ANCESTORS: CSP source expressions only (nothing that could end the directive or the header), and
// X-Frame-Options kept in agreement with frame-ancestors on the overlay.
import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { parseFrameAncestors } from "../net/frame-ancestors";
import { overlayFraming } from "./overlay-framing";

function run(sources: string[], path: string) {
  const headers = new Map<string, string>([
    ["Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; object-src 'none'"],
    ["X-Frame-Options", "SAMEORIGIN"],
  ]);
  const res = { getHeader: (n: string) => headers.get(n), setHeader: (n: string, v: string) => headers.set(n, v), removeHeader: (n: string) => headers.delete(n) };
  overlayFraming(sources)({ path } as Request, res as unknown as Response, (() => {}) as NextFunction);
  return Object.fromEntries(headers);
}

describe("overlay framing", () => {
  it("parses source lists and refuses anything else", () => {
    expect(parseFrameAncestors("*")).toEqual(["*"]);
    expect(parseFrameAncestors("'self', https://*.streamelements.com https://obs.example:8443 https:")).toEqual([
      "'self'",
      "https://*.streamelements.com",
      "https://obs.example:8443",
      "https:",
    ]);
    for (const bad of ["", "https://a.example; script-src *", "'unsafe-inline'", "'none' https://a.example", "https://a.example;", 'https://a.example/"x'])
      expect(() => parseFrameAncestors(bad), bad).toThrow();
  });

  it("widens frame-ancestors on live.html only, and keeps X-Frame-Options from contradicting it", () => {
    expect(run(["*"], "/api/scoreboard/live.html")).toEqual({ "Content-Security-Policy": "default-src 'self'; frame-ancestors *; object-src 'none'" });
    expect(run(["*"], "/studio")).toMatchObject({ "Content-Security-Policy": expect.stringContaining("frame-ancestors 'none'"), "X-Frame-Options": "SAMEORIGIN" });
    expect(run(["'self'"], "/api/scoreboard/live.html")).toMatchObject({ "X-Frame-Options": "SAMEORIGIN" });
    expect(run(["'none'"], "/api/scoreboard/live.html")).toMatchObject({ "X-Frame-Options": "DENY" });
  });
});
