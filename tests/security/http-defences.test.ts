// Browser-facing defences over real HTTP: CSRF on every mutation and form action, cookie attributes, the
// CSP on every kind of page. (The sign-in throttle has its own file, sign-in-throttle.test.ts.)
import { beforeAll, describe, expect, inject, it } from "vitest";
import { Client, signInAdmin, signUpUser, uniqueUsername, type TestUser } from "../support/client";

const baseUrl = inject("baseUrl");

interface Doc {
  paths: Record<string, Record<string, unknown>>;
}

let user: TestUser;
let cameraId: string;

beforeAll(async () => {
  user = await signUpUser();
  cameraId = (await (await user.client.post("/api/cameras", { name: "CSRF target", deviceId: "cam-1" })).json()).id;
});

async function expectRefused(response: Response, what: string) {
  expect(response.status, what).toBe(403);
  expect(response.headers.get("content-type"), what).toContain("application/problem+json");
  expect((await response.json()).detail, what).toMatch(/Cross-site request refused/);
}

/** What a hostile page can make a browser send without CORS: a "simple" request with the victim's cookies. */
const CROSS_SITE_BODIES: Array<[string, () => BodyInit]> = [
  ["application/x-www-form-urlencoded", () => new URLSearchParams({ name: "pwned", title: "pwned", description: "pwned" })],
  [
    "multipart/form-data",
    () => {
      const form = new FormData();
      form.set("name", "pwned");
      return form;
    },
  ],
  ["text/plain", () => JSON.stringify({ name: "pwned", title: "pwned", description: "pwned" })],
];
const CROSS_SITE_HEADERS: Array<[string, Record<string, string>]> = [
  ["Origin of another site", { origin: "https://evil.example" }],
  ["Origin null (sandboxed frame, data: page)", { origin: "null" }],
  ["the site's origin on another port", { origin: baseUrl.replace(/:(\d+)$/, (_m, port: string) => `:${Number(port) + 1}`) }],
  ["no Origin, Sec-Fetch-Site cross-site", { "sec-fetch-site": "cross-site" }],
  ["no Origin, Sec-Fetch-Site same-site (a sibling subdomain)", { "sec-fetch-site": "same-site" }],
];

describe("CSRF", () => {
  it("refuses every API mutation in the OpenAPI document from another site, for every simple content type", async () => {
    const doc = (await (await fetch(`${baseUrl}/api/openapi.json`)).json()) as Doc;
    let tried = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods).filter((m) => m !== "get")) {
        const url = path.replace(/\{channel\}/, "email").replace(/\{\w+\}/, cameraId);
        for (const [type, body] of CROSS_SITE_BODIES) {
          for (const [why, headers] of CROSS_SITE_HEADERS) {
            // FormData sets its own multipart boundary.
            const contentType: Record<string, string> = type === "multipart/form-data" ? {} : { "content-type": type };
            const response = await user.client.request(method.toUpperCase(), url, { body: body(), headers: { ...contentType, ...headers } });
            await expectRefused(response, `${method.toUpperCase()} ${path} as ${type} with ${why}`);
            tried++;
          }
        }
      }
    }
    expect(tried).toBeGreaterThan(500);
    // Nothing happened: the session and the camera are still there.
    expect((await user.client.get("/api/auth/me")).status).toBe(200);
    expect((await (await user.client.get(`/api/cameras/${cameraId}`)).json()).name).toBe("CSRF target");
  });

  it.each(["/login", "/signup", "/logout", "/login.data", "/signup.data", "/logout.data", "/studio", "/admin"])("refuses a cross-site form post to the page %s", async (path) => {
    const victim = await signUpUser();
    for (const [why, headers] of CROSS_SITE_HEADERS) {
      const response = await victim.client.request("POST", path, {
        body: new URLSearchParams({ username: uniqueUsername("csrf"), password: "secret-123", confirmPassword: "secret-123" }),
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      });
      await expectRefused(response, `${path} with ${why}`);
      expect(response.headers.get("set-cookie"), `${path} with ${why}`).toBeNull();
    }
    // A cross-site logout did not sign the victim out.
    expect((await victim.client.get("/api/auth/me")).status).toBe(200);
  });

  it("accepts the site's own form posts (same Origin, or Sec-Fetch-Site same-origin without an Origin)", async () => {
    const mine = await signUpUser();
    const signIn = (headers: Record<string, string>) =>
      new Client().request("POST", "/login", {
        body: new URLSearchParams({ username: mine.username, password: mine.password }),
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      });
    for (const headers of [{ origin: baseUrl }, { "sec-fetch-site": "same-origin" }] as Array<Record<string, string>>) {
      const response = await signIn(headers);
      expect(response.status, JSON.stringify(headers)).toBe(302);
      expect(response.headers.get("set-cookie"), JSON.stringify(headers)).toMatch(/fw_session=/);
    }
  });
});

function cookieAttributes(setCookie: string) {
  const [pair, ...attributes] = setCookie.split(";").map((part) => part.trim());
  return { name: pair!.split("=")[0], attributes: attributes.map((a) => a.toLowerCase()) };
}

function expectSafeCookie(setCookie: string, secure: boolean) {
  const { name, attributes } = cookieAttributes(setCookie);
  expect(attributes, `${name}: HttpOnly`).toContain("httponly");
  expect(attributes, `${name}: SameSite`).toContain("samesite=lax");
  expect(attributes, `${name}: Path=/`).toContain("path=/");
  if (secure) expect(attributes, `${name}: Secure`).toContain("secure");
  else expect(attributes, `${name}: not Secure over plain HTTP`).not.toContain("secure");
}

describe("cookies", () => {
  /** Every way the app sets a cookie: API sign-up, API sign-in, the sign-in form (session and toast), sign-out. */
  async function everySetCookie(headers: Record<string, string>): Promise<string[]> {
    const seen: string[] = [];
    const username = uniqueUsername("cookie");
    const password = "cookie-pass-1";
    const record = (response: Response) => seen.push(...response.headers.getSetCookie());
    record(await new Client(undefined, headers).post("/api/auth/signup", { username, password }));
    const api = new Client(undefined, headers);
    record(await api.post("/api/auth/login", { username, password }));
    record(await api.post("/api/auth/logout"));
    const form = await new Client(undefined, headers).request("POST", "/login", {
      body: new URLSearchParams({ username, password }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(302);
    record(form);
    return seen;
  }

  it("marks every cookie HttpOnly, SameSite=Lax and Path=/, without Secure over plain HTTP (localhost)", async () => {
    const cookies = await everySetCookie({});
    expect(cookies.some((c) => c.startsWith("fw_session="))).toBe(true);
    for (const cookie of cookies) expectSafeCookie(cookie, false);
  });

  // Production runs behind a TLS-terminating proxy (TRUST_PROXY, as the test server has for loopback):
  // the app sees HTTPS through X-Forwarded-Proto, and SECURE_COOKIES=auto then marks cookies Secure.
  it("marks every cookie Secure, and sends HSTS, when the request came over HTTPS through the trusted proxy", async () => {
    const cookies = await everySetCookie({ "x-forwarded-proto": "https" });
    expect(cookies.some((c) => c.startsWith("fw_session="))).toBe(true);
    for (const cookie of cookies) expectSafeCookie(cookie, true);
    const page = await fetch(`${baseUrl}/`, { headers: { "x-forwarded-proto": "https" } });
    expect(page.headers.get("strict-transport-security")).toMatch(/max-age=\d{7,}/);
  });
});

function parseCsp(header: string | null): Record<string, string[]> {
  expect(header, "a Content-Security-Policy header").toBeTruthy();
  return Object.fromEntries(
    header!
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("Content-Security-Policy", () => {
  async function pages() {
    const admin = await signInAdmin();
    const owner = await signUpUser();
    return [
      // Prerendered, the same bytes for everyone (server/http/prerendered-pages.ts): no nonce, no inline script.
      { what: "marketing home", client: new Client(), path: "/", shared: true },
      { what: "pricing", client: new Client(), path: "/pricing", shared: true },
      { what: "sign-in page", client: new Client(), path: "/login" },
      { what: "studio", client: owner.client, path: "/studio" },
      { what: "admin dashboard", client: admin, path: "/admin" },
      { what: "live.html overlay", client: new Client(), path: `/api/scoreboard/live.html?userId=${owner.id}` },
      { what: "not-found page", client: new Client(), path: "/no-such-page" },
    ];
  }

  it("forbids inline script without this response's nonce on every kind of page, and every script carries the nonce (prerendered pages: same-origin files only)", async () => {
    const nonces = new Set<string>();
    for (const { what, client, path, shared } of await pages()) {
      const response = await client.get(path);
      expect(response.status, what).toBeLessThan(500);
      const csp = parseCsp(response.headers.get("content-security-policy"));
      const scriptSrc = csp["script-src"] ?? csp["default-src"]!;
      expect(scriptSrc, what).not.toContain("'unsafe-inline'");
      expect(scriptSrc, what).not.toContain("'unsafe-eval'");
      expect(scriptSrc, what).not.toContain("*");
      expect(csp["script-src-attr"] ?? [], what).not.toContain("'unsafe-inline'");
      const nonce = scriptSrc.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
      if (shared) {
        // Without a nonce, 'strict-dynamic' would block 'self' too; only same-origin files may run.
        expect(scriptSrc, what).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      } else {
        expect(nonce, `${what}: a nonce in script-src`).toMatch(/^[A-Za-z0-9+/=]{22,}$/);
        expect(nonces.has(nonce!), `${what}: a fresh nonce per response`).toBe(false);
        nonces.add(nonce!);
      }
      expect(csp["object-src"], what).toEqual(["'none'"]);
      expect(csp["base-uri"], what).toEqual(["'self'"]);
      // The OBS overlay is made to be embedded by overlay tools (OVERLAY_FRAME_ANCESTORS, default *); nothing else is.
      expect(csp["frame-ancestors"], what).toEqual(path.startsWith("/api/scoreboard/live.html") ? ["*"] : ["'none'"]);
      expect(csp["form-action"], what).toEqual(["'self'"]);
      const html = await response.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>/gi)].map((m) => m[1]!);
      expect(scripts.length, `${what}: has scripts to check`).toBeGreaterThan(0);
      for (const attributes of scripts) {
        if (/type="application\/(ld\+)?json"/.test(attributes)) continue; // data blocks never run
        if (shared) expect(attributes, `${what}: every script is a same-origin file`).toMatch(/\ssrc="\/[^/]/);
        else expect(attributes, `${what}: every script carries the nonce`).toContain(`nonce="${nonce}"`);
      }
      // Inline event handlers would be blocked anyway; none should be written.
      expect(html, `${what}: no inline event handler attributes`).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
      expect(response.headers.get("x-content-type-options"), what).toBe("nosniff");
    }
  });
});
