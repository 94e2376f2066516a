// API_FAST_PATH=false (every /api request walks Express's router) answers exactly as the fast path does
// (docs/decisions/0007-api-fast-path.md): the same status, the same headers in the same order, the same body and the
// same request log line, for a sample of API requests that exercises every middleware the chain applies.
import { request as httpRequest } from "node:http";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueUsername } from "../support/client";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";

let fast: TestApp;
let chain: TestApp;

const start = async (env: Record<string, string>) =>
  startApp({
    ...env,
    DATABASE_URL: await createOwnDatabase(),
    DATABASE_POOL_SIZE: "4",
    DATA_DIR: tempDir("api-fast-path"),
    ALLOWED_HOSTS: "framewise.example",
    OVERLAY_FRAME_ANCESTORS: "https://obs.example",
  });

beforeAll(async () => {
  [fast, chain] = await Promise.all([start({}), start({ API_FAST_PATH: "false" })]);
});

afterAll(async () => {
  await Promise.all([fast?.stop(), chain?.stop()]);
});

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sent as chunks without a Content-Length. */
  chunked?: boolean;
}

interface Answer {
  status: number;
  /** Every header as sent, in order, with per-request values replaced. */
  headers: Array<[string, string]>;
  body: string;
  requestId: string;
}

/** One request over a plain socket, so Host and every other header go as given and the answer comes back unaltered. */
function send(app: TestApp, sent: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: app.port, method: sent.method, path: sent.path, headers: sent.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        let bytes = Buffer.concat(chunks);
        const encoding = res.headers["content-encoding"];
        if (encoding === "gzip") bytes = gunzipSync(bytes);
        if (encoding === "br") bytes = brotliDecompressSync(bytes);
        const headers: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          headers.push([name, normalizeHeader(name, res.rawHeaders[i + 1]!)]);
        }
        resolve({ status: res.statusCode!, headers, body: normalizeText(bytes.toString("utf8")), requestId: String(res.headers["x-request-id"]) });
      });
    });
    req.on("error", reject);
    if (sent.chunked && sent.body) {
      req.write(sent.body.slice(0, 5));
      req.end(sent.body.slice(5));
    } else {
      req.end(sent.body);
    }
  });
}

function normalizeText(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, "<time>")
    .replace(/nonce="[^"]+"/g, 'nonce="<nonce>"');
}

function normalizeHeader(name: string, value: string): string {
  if (name === "date" || name === "x-request-id" || name === "etag" || name === "content-length") return "<varies>";
  if (name === "content-security-policy") return value.replace(/'nonce-[^']+'/, "'nonce-<nonce>'");
  if (name === "set-cookie") return value.replace(/^([^=]+)=[^;]+/, "$1=<value>").replace(/expires=[^;]+/i, "expires=<time>");
  return normalizeText(value);
}

/** The app's log line for a request, as its fields (the time and response time left out). */
function logLine(app: TestApp, requestId: string): unknown {
  // Lines read at start-up are kept without their newline, raw chunks after it with theirs.
  const line = app.logs
    .join("\n")
    .split("\n")
    .find((text) => text.includes(requestId));
  if (!line) return undefined;
  const { time: _time, pid: _pid, hostname: _hostname, responseTime, ...fields } = JSON.parse(line) as Record<string, unknown>;
  return { ...fields, responseTime: typeof responseTime, req: { ...(fields.req as object), id: "<id>" } };
}

describe("API fast path", () => {
  it("answers a sample of API requests exactly as the router's chain does", async () => {
    const username = uniqueUsername("fastpath"); // separate databases: the same name on both keeps bodies equal
    const cookies = new Map<TestApp, string>();
    const both = async (sent: Sent | ((app: TestApp) => Sent), label: string) => {
      const answers: Answer[] = [];
      for (const app of [fast, chain]) {
        const request = typeof sent === "function" ? sent(app) : sent;
        answers.push(await send(app, request));
      }
      const [viaFast, viaChain] = answers as [Answer, Answer];
      expect({ status: viaFast.status, headers: viaFast.headers, body: viaFast.body }, label).toEqual({ status: viaChain.status, headers: viaChain.headers, body: viaChain.body });
      // Each line is written when its answer has gone out: wait for both, then compare.
      await expect.poll(() => [logLine(fast, viaFast.requestId), logLine(chain, viaChain.requestId)].includes(undefined), { message: label }).toBe(false);
      expect(logLine(fast, viaFast.requestId), label).toEqual(logLine(chain, viaChain.requestId));
      return viaFast;
    };
    const json = { "content-type": "application/json" };
    const signedIn = (app: TestApp, headers: Record<string, string> = {}) => ({ cookie: cookies.get(app)!, ...headers });

    expect((await both({ method: "GET", path: "/api/auth/me" }, "anonymous")).status).toBe(401);
    const signup = JSON.stringify({ username, password: "correct-horse" });
    for (const app of [fast, chain]) {
      const answer = await new Promise<string>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port: app.port, method: "POST", path: "/api/auth/signup", headers: json }, (res) => {
          res.resume();
          res.on("end", () => resolve(String(res.headers["set-cookie"]?.[0]).split(";")[0]!));
        });
        req.on("error", reject);
        req.end(signup);
      });
      cookies.set(app, answer);
    }
    const me = await both((app) => ({ method: "GET", path: "/api/auth/me", headers: signedIn(app) }), "signed in");
    expect(me.status).toBe(200);
    // API data loads nothing and needs no nonce (server/http/security.ts); pages under /api keep theirs (below).
    expect(me.headers).toContainEqual(["content-security-policy", "default-src 'none';frame-ancestors 'none'"]);
    await both((app) => ({ method: "GET", path: "/api/auth/me", headers: signedIn(app, { "accept-encoding": "gzip, br" }) }), "small answer, compression offered");
    const big = await both({ method: "GET", path: "/api/openapi.json", headers: { "accept-encoding": "gzip" } }, "compressed");
    expect(big.headers).toContainEqual(["content-encoding", "gzip"]);
    await both({ method: "HEAD", path: "/api/openapi.json", headers: { "accept-encoding": "br" } }, "HEAD");
    await both((app) => ({ method: "HEAD", path: "/api/auth/me", headers: signedIn(app) }), "HEAD signed in");
    const proxied = await both((app) => ({ method: "GET", path: "/api/auth/me", headers: signedIn(app, { "x-forwarded-proto": "https" }) }), "HTTPS through the proxy");
    expect(proxied.headers.map(([name]) => name)).toContain("strict-transport-security");
    expect((await both({ method: "GET", path: "/api/auth/me", headers: { host: "rebind.example" } }, "unknown host")).status).toBe(421);
    await both({ method: "GET", path: "/api/auth/me", headers: { host: "framewise.example" } }, "known host");
    await both({ method: "GET", path: "/api/auth/me", headers: { "x-forwarded-host": "rebind.example" } }, "unknown forwarded host");
    const crossSite = (headers: Record<string, string>) => (app: TestApp) => ({
      method: "POST",
      path: "/api/cameras",
      headers: signedIn(app, { ...json, ...headers }),
      body: JSON.stringify({ name: "Door", model: "WebRTC Webcam", status: "online" }),
    });
    expect((await both(crossSite({ origin: "https://evil.example" }), "cross-site origin")).status).toBe(403);
    expect((await both(crossSite({ "sec-fetch-site": "cross-site" }), "cross-site fetch")).status).toBe(403);
    expect((await both(crossSite({ "sec-fetch-site": "same-origin" }), "same-origin create")).status).toBe(201);
    expect((await both((app) => ({ ...crossSite({})(app), chunked: true }), "chunked body")).status).toBe(201);
    expect((await both((app) => ({ ...crossSite({})(app), body: "{not json" }), "bad JSON")).status).toBe(400);
    const huge = JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) });
    await both((app) => ({ ...crossSite({})(app), body: huge }), "a body of over a megabyte");
    expect((await both({ method: "GET", path: "/api/cameras/%ZZ" }, "malformed escape")).status).toBe(400);
    expect((await both({ method: "GET", path: "/api/cameras/%7A" }, "escaped letter")).status).toBe(401);
    expect((await both({ method: "GET", path: "/api/no-such-thing" }, "no route")).status).toBe(404);
    await both({ method: "GET", path: "/api" }, "the bare prefix");
    await both({ method: "GET", path: "/api/" }, "the prefix with a slash");
    await both({ method: "GET", path: "/api/openapi.json?x=1" }, "a file-like path with a query");
    expect((await both((app) => ({ method: "DELETE", path: "/api/cameras", headers: signedIn(app) }), "method not allowed")).status).toBe(405);
    await both({ method: "OPTIONS", path: "/api/cameras" }, "OPTIONS");
    const overlay = await both({ method: "GET", path: "/api/scoreboard/live.html" }, "the framed overlay");
    expect(overlay.headers).toContainEqual(["cross-origin-resource-policy", "cross-origin"]);
    expect(overlay.headers.find(([name]) => name === "content-security-policy")?.[1]).toContain("'nonce-<nonce>'");
    await both({ method: "GET", path: "/api/scoreboard/live.json" }, "a cross-origin feed");
  });
});
