import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { helmetMiddleware, securityHeaders } from "./security";

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
