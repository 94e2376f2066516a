// What every response carries: security headers, CSP nonces, caching, health probes, real 404s.
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client";

const baseUrl = inject("baseUrl");

describe("security headers", () => {
  it("sends a nonce CSP, and every script in the page carries that nonce", async () => {
    const response = await fetch(`${baseUrl}/login`);
    const csp = response.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toContain("script-src 'self' 'nonce-");
    expect(csp).not.toContain("'unsafe-inline' 'nonce");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    const second = await fetch(`${baseUrl}/login`);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
  });

  it("sets nosniff, a referrer policy, a camera-only permissions policy and no X-Powered-By", async () => {
    const response = await fetch(`${baseUrl}/`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("permissions-policy")).toContain("camera=(self)");
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("sends HSTS only when the request came over HTTPS through a trusted proxy", async () => {
    const response = await fetch(`${baseUrl}/`, { headers: { "x-forwarded-proto": "https" } });
    expect(response.headers.get("strict-transport-security")).toContain("max-age=31536000");
  });

  it("marks the session cookie Secure over HTTPS", async () => {
    const client = new Client(baseUrl, { "x-forwarded-proto": "https" });
    const response = await client.post("/api/auth/signup", { username: `secure_${Date.now()}`, password: "secret12" });
    expect(response.headers.get("set-cookie")).toMatch(/; Secure/i);
  });
});

describe("static assets and compression", () => {
  it("serves hashed assets as immutable for a year and compresses them", async () => {
    const html = await (await fetch(`${baseUrl}/login`)).text();
    const asset = /href="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const response = await fetch(`${baseUrl}${asset}`, { headers: { "accept-encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-encoding")).toBe("gzip");
  });
});

describe("probes and unknown URLs", () => {
  it("answers /healthz and /readyz", async () => {
    expect(await (await fetch(`${baseUrl}/healthz`)).json()).toEqual({ status: "ok" });
    expect(await (await fetch(`${baseUrl}/readyz`)).json()).toEqual({ status: "ready" });
  });

  it("answers a real 404 page for unknown pages and problem JSON for unknown API paths", async () => {
    const page = await fetch(`${baseUrl}/no-such-page`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Page not found");
    const api = await fetch(`${baseUrl}/api/no-such-thing`, { method: "POST" });
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toContain("application/problem+json");
    expect((await api.json()).detail).toBe("No API route matches POST /api/no-such-thing");
  });

  it("tags each response with a request id", async () => {
    const response = await fetch(`${baseUrl}/api/auth/me`);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
