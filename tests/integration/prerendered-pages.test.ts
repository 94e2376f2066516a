// The public site served prerendered (server/http/prerendered-pages.ts): the same bytes and headers as React
// Router renders for an anonymous visitor, a CSP without a nonce, ETags and 304s, HEAD, the flash toast after
// signing in, and no database work at all.
import http from "node:http";
import { describe, expect, inject, it } from "vitest";
import { MAX_ORIGINS, PRERENDERED_PATHS } from "#server/http/prerendered-pages";
import { Client, signUpUser } from "../support/client";
import { startApp, startTestPostgres, tempDir } from "../support/stack";

const baseUrl = inject("baseUrl");
const PAGES = ["/", "/pricing", "/downloads", "/eula", "/about", "/contact"];
const FILES = ["/robots.txt", "/sitemap.xml"];
/** A flash cookie whose signature does not verify: the request takes the dynamic path and shows no toast. */
const UNSIGNED_FLASH = "fw_flash=eyJ0aXRsZSI6Im5vIn0%3D";
/** Headers that differ between any two responses, or by how the body was sent. */
const PER_RESPONSE = new Set(["date", "x-request-id", "etag", "content-length", "transfer-encoding", "keep-alive", "connection", "set-cookie"]);

function headersOf(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers.entries()].filter(([name]) => !PER_RESPONSE.has(name)));
}

/** A GET through node:http: sends exactly the headers given (a Host of our choosing, no added Cache-Control). */
function get(path: string, headers: Record<string, string>, base = baseUrl) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers }, (response) => {
        let body = "";
        response.setEncoding("latin1");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      })
      .on("error", reject);
  });
}

const withoutNonces = (html: string) => html.replace(/ nonce="[^"]*"/g, "");

describe("prerendered public pages", () => {
  it("answer with React Router's bytes and headers, the CSP without a nonce (and without 'strict-dynamic', which would block 'self')", async () => {
    for (const path of [...PAGES, ...FILES]) {
      const fast = await fetch(`${baseUrl}${path}`, { headers: { "accept-encoding": "gzip" } });
      const dynamic = await fetch(`${baseUrl}${path}`, { headers: { "accept-encoding": "gzip", cookie: UNSIGNED_FLASH } });
      expect(fast.status, path).toBe(200);
      expect(dynamic.status, path).toBe(200);
      expect(fast.headers.get("etag"), `${path} comes from memory`).toMatch(/^"[\w-]+"$/);
      expect(dynamic.headers.get("etag"), `${path} with a flash cookie is rendered`).toBeNull();

      const dynamicCsp = dynamic.headers.get("content-security-policy") ?? "";
      const fastCsp = fast.headers.get("content-security-policy") ?? "";
      expect(dynamicCsp).toMatch(/'nonce-[^']+' 'strict-dynamic'/);
      expect(fastCsp).not.toMatch(/nonce|strict-dynamic/);
      expect(fastCsp).toContain("script-src 'self' 'wasm-unsafe-eval';");
      expect(fastCsp).toBe(dynamicCsp.replace(/ 'nonce-[^']+' 'strict-dynamic'/, ""));

      const { "content-security-policy": _fastCsp, ...fastRest } = headersOf(fast);
      const { "content-security-policy": _dynamicCsp, ...dynamicRest } = headersOf(dynamic);
      // Under compression()'s 1 KB threshold a prerendered body goes as it is; rendered, its length is unknown
      // when compression() decides, so it gzips a 200-byte robots.txt.
      if (FILES.includes(path)) delete dynamicRest["content-encoding"];
      expect(fastRest, path).toEqual(dynamicRest);

      const [fastBody, dynamicBody] = [await fast.text(), await dynamic.text()];
      expect(fastBody).not.toContain("nonce=");
      expect(fastBody, path).toBe(withoutNonces(dynamicBody));
    }
    // Over HTTPS (a trusted proxy says so) both add HSTS.
    const https = { "x-forwarded-proto": "https" };
    const fastHsts = (await fetch(`${baseUrl}/about`, { headers: https })).headers.get("strict-transport-security");
    expect(fastHsts).toContain("max-age=");
    expect(fastHsts).toBe((await fetch(`${baseUrl}/about`, { headers: { ...https, cookie: UNSIGNED_FLASH } })).headers.get("strict-transport-security"));
  });

  it("serve gzip or brotli as asked, with an ETag per encoding, 304 to a matching If-None-Match, and HEAD", async () => {
    const identity = await fetch(`${baseUrl}/pricing`, { headers: { "accept-encoding": "identity" } });
    const html = await identity.text();
    expect(identity.headers.get("content-encoding")).toBeNull();
    expect(Number(identity.headers.get("content-length"))).toBe(Buffer.byteLength(html));

    const tags = new Set([identity.headers.get("etag")]);
    for (const encoding of ["gzip", "br"]) {
      const response = await fetch(`${baseUrl}/pricing`, { headers: { "accept-encoding": encoding } });
      expect(response.headers.get("content-encoding")).toBe(encoding);
      expect(await response.text(), "fetch decodes it to the same page").toBe(html);
      tags.add(response.headers.get("etag"));
    }
    expect(tags.size).toBe(3);

    // node:http, as a browser revalidates: fetch() adds "Cache-Control: no-cache" to a conditional request.
    const etag = identity.headers.get("etag")!;
    const notModified = await get("/pricing", { "accept-encoding": "identity", "if-none-match": `"other", ${etag}` });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe("");
    expect(notModified.headers["etag"]).toBe(etag);
    const gzipTag = (await fetch(`${baseUrl}/pricing`, { headers: { "accept-encoding": "gzip" } })).headers.get("etag")!;
    expect((await get("/pricing", { "accept-encoding": "gzip", "if-none-match": gzipTag })).status).toBe(304);
    expect((await get("/pricing", { "accept-encoding": "identity", "if-none-match": gzipTag })).status, "another encoding is another file").toBe(200);
    expect((await get("/pricing", { "accept-encoding": "identity", "if-none-match": '"an-older-build"' })).status).toBe(200);

    // Answered in the request's own tick, before Node has seen its (empty) body end: the connection stays open.
    expect((await get("/pricing", {})).headers["connection"]).toBe("keep-alive");

    const head = await fetch(`${baseUrl}/pricing`, { method: "HEAD", headers: { "accept-encoding": "identity" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(identity.headers.get("content-length"));
    expect(head.headers.get("etag")).toBe(etag);
    expect(head.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("robots.txt and sitemap.xml keep their types and an hour of caching", async () => {
    for (const [path, type, line] of [
      ["/robots.txt", "text/plain; charset=utf-8", `Sitemap: ${baseUrl}/sitemap.xml`],
      ["/sitemap.xml", "application/xml; charset=utf-8", `<loc>${baseUrl}/</loc>`],
    ] as const) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
      expect(response.headers.get("etag")).toBeTruthy();
      expect(await response.text()).toContain(line);
    }
    // Every page the sitemap lists is one of them: a new public page is prerendered too, or this says so.
    const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
    const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    expect(listed.length).toBeGreaterThan(0);
    expect(PRERENDERED_PATHS).toEqual(expect.arrayContaining(listed));
    expect([...PRERENDERED_PATHS].sort()).toEqual([...PAGES, ...FILES].sort());
  });

  it("name each origin they are asked for, and still refuse hosts the server does not answer to", async () => {
    const sitemap = (host: string) => get("/sitemap.xml", { host, "x-forwarded-proto": "https" });
    expect((await sitemap("127.0.0.2:8443")).body).toContain("<loc>https://127.0.0.2:8443/pricing</loc>");
    expect((await sitemap("127.0.0.3")).body).toContain("<loc>https://127.0.0.3/pricing</loc>");
    expect((await sitemap("127.0.0.2:8443")).body).not.toContain("127.0.0.3");
    expect((await sitemap("attacker.example")).status).toBe(421);
  });

  it("show the flash toast after signing in (the dynamic path), once, then serve the prerendered page again", async () => {
    const { username, password } = await signUpUser();
    const client = new Client();
    const form = new URLSearchParams({ username, password, redirectTo: "/pricing" });
    const signIn = await client.request("POST", "/login", { body: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("location")).toBe("/pricing");
    expect(client.cookieHeader).toContain("fw_flash=");

    const withToast = await client.get("/pricing");
    const html = await withToast.text();
    expect(withToast.headers.get("etag")).toBeNull();
    expect(html).toContain("Welcome back!");
    expect(client.cookieHeader, "the toast is shown once").not.toContain("fw_flash=");

    const after = await client.get("/pricing");
    expect(after.headers.get("etag")).toBeTruthy();
    expect(await after.text()).not.toContain("Welcome back!");
    expect(client.cookieHeader, "still signed in").toContain("fw_session=");
  });
});

describe("prerendered public pages on a fresh server", () => {
  it("keep a bounded number of origins, and are served to a visitor with a session cookie while PostgreSQL is down", async () => {
    const pg = await startTestPostgres();
    const app = await startApp({ DATABASE_URL: await pg.createDatabase(), DATA_DIR: tempDir("prerender-no-db") });
    try {
      const signedIn = await signUpUser({ baseUrl: app.url });
      expect((await signedIn.client.get("/")).headers.get("etag"), "the app's own origin is kept").toBeTruthy();
      // Made-up origins (any IP address is a host the server answers to): 15 more are kept, the rest rendered per request.
      const kept: boolean[] = [];
      for (let n = 1; n <= MAX_ORIGINS + 4; n++) {
        const response = await get("/sitemap.xml", { host: `127.0.1.${n}:8080` }, app.url);
        expect(response.body).toContain(`<loc>http://127.0.1.${n}:8080/pricing</loc>`);
        kept.push(Boolean(response.headers["etag"]));
      }
      expect(kept).toEqual(Array.from({ length: MAX_ORIGINS + 4 }, (_, index) => index < MAX_ORIGINS - 1));

      await pg.stop();
      // A page that looks the session up fails now: the database is really gone.
      const studio = await signedIn.client.get("/studio");
      expect(studio.status).toBeGreaterThanOrEqual(500);
      for (const path of [...PAGES, ...FILES]) {
        const response = await signedIn.client.get(path);
        expect(response.status, path).toBe(200);
        expect(response.headers.get("etag"), path).toBeTruthy();
      }
    } finally {
      await app.stop();
      await pg.stop().catch(() => {});
    }
  });
});
