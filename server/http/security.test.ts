import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { helmetMiddleware, security, securityHeaders } from "./security";

/** The headers a middleware sets on a response whose CSP nonce is `nonce`, in order. */
function headersSet(middleware: (req: Request, res: Response, next: () => void) => void, nonce: string): Array<[string, string]> {
  const set: Array<[string, string]> = [];
  const res = {
    locals: { cspNonce: nonce },
    setHeader: (name: string, value: unknown) => void set.push([name.toLowerCase(), String(value)]),
    removeHeader: () => {},
    getHeader: () => undefined,
  };
  let nextCalled = false;
  middleware({ method: "GET", headers: {} } as Request, res as unknown as Response, () => (nextCalled = true));
  expect(nextCalled).toBe(true);
  return set;
}

describe("securityHeaders", () => {
  for (const dev of [false, true]) {
    it(`sets exactly helmet's headers with each request's nonce${dev ? " (development)" : ""}`, () => {
      const fast = securityHeaders({ dev });
      for (const nonce of ["AAAA+/==", "b3RoZXIgbm9uY2U="]) {
        const expected = headersSet(helmetMiddleware({ dev }), nonce);
        expect(headersSet(fast, nonce)).toEqual(expected);
        if (!dev) expect(expected.find(([name]) => name === "content-security-policy")?.[1]).toContain(`'nonce-${nonce}'`);
      }
    });
  }
});

describe("security", () => {
  const run = (path: string, secure = false) => {
    // As Node keeps them: a header set again keeps its place.
    const headers = new Map<string, string>();
    const res = { locals: {} as Record<string, unknown>, setHeader: (name: string, value: unknown) => void headers.set(name.toLowerCase(), String(value)) };
    let nextCalled = false;
    security({ dev: false })({ path, secure } as Request, res as unknown as Response, () => (nextCalled = true));
    expect(nextCalled).toBe(true);
    return { headers, names: [...headers.keys()], nonce: res.locals.cspNonce as string | undefined };
  };

  it("gives a page helmet's headers with a fresh nonce, then Permissions-Policy", () => {
    for (const path of ["/studio", "/api/scoreboard/live.html"]) {
      const first = run(path);
      expect(first.nonce, path).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(first.headers.get("content-security-policy"), path).toContain(`'nonce-${first.nonce}'`);
      expect(run(path).nonce, path).not.toBe(first.nonce);
      expect([...first.headers].slice(0, -1), path).toEqual(
        headersSet(helmetMiddleware({ dev: false }), first.nonce!).map(([name, value]) => [
          name,
          name === "cross-origin-resource-policy" && path.startsWith("/api/scoreboard/") ? "cross-origin" : value,
        ]),
      );
      expect(first.names.at(-1), path).toBe("permissions-policy");
    }
  });

  it("gives API data the same headers in the same order, with a CSP that loads nothing and no nonce", () => {
    const page = run("/studio");
    for (const path of ["/api/auth/me", "/api", "/api/photos/1/image", "/api/scoreboard/live.json"]) {
      const api = run(path);
      expect(api.nonce, path).toBeUndefined();
      expect(api.names, path).toEqual(page.names);
      expect(api.headers.get("content-security-policy"), path).toBe("default-src 'none';frame-ancestors 'none'");
      for (const [name, value] of page.headers) {
        if (name === "content-security-policy") continue;
        expect(api.headers.get(name), `${path} ${name}`).toBe(name === "cross-origin-resource-policy" && path.startsWith("/api/scoreboard/") ? "cross-origin" : value);
      }
    }
  });

  it("adds HSTS over HTTPS only, to pages and API data alike", () => {
    for (const path of ["/studio", "/api/auth/me"]) {
      expect(run(path).headers.has("strict-transport-security"), path).toBe(false);
      expect(run(path, true).headers.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains");
    }
  });
});
