// DNS rebinding: a hostile page whose domain now resolves to the server makes the browser send that domain as
// Host and Origin. Only known hosts are answered (421 otherwise). Raw node:http requests, because fetch
// always writes the Host of the URL.
import http from "node:http";
import os from "node:os";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { uniqueIp, uniqueUsername } from "../support/client";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    // setHost: false, so a request can go without any Host when none is given.
    const req = http.request({ host: base.hostname, port: base.port, method, path, headers, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

function signUpAs(baseUrl: string, host: string, extra: Record<string, string> = {}) {
  const username = uniqueUsername("host");
  const body = JSON.stringify({ username, password: "secret-123" });
  return {
    username,
    answer: send(baseUrl, "POST", "/api/auth/signup", { host, origin: `http://${host}`, "content-type": "application/json", ...extra }, body),
  };
}

function expectMisdirected(answer: Answer, what: string) {
  expect(answer.status, what).toBe(421);
  expect(answer.headers["content-type"], what).toContain("application/problem+json");
  expect(JSON.parse(answer.body), what).toMatchObject({ status: 421, title: "Misdirected Request" });
}

describe("unknown hosts (the shared app, listening on 127.0.0.1)", () => {
  const baseUrl = inject("baseUrl");
  const port = new URL(baseUrl).port;
  const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
  afterAll(() => sql.end());

  it("refuses a rebinding page's sign-up (its own domain as Host and Origin) with 421, creating nothing", async () => {
    const { username, answer } = signUpAs(baseUrl, `attacker.example:${port}`);
    expectMisdirected(await answer, "sign-up");
    expect(await sql`select 1 from users where username = ${username}`).toHaveLength(0);
  });

  it("answers 421 for pages, API reads, assets and the sign-in form alike, naming the host", async () => {
    const host = { host: `attacker.example:${port}` };
    for (const path of ["/", "/studio", "/login", "/api/auth/me", "/api/openapi.json", "/favicon.ico", "/assets/nothing.js"]) {
      const answer = await send(baseUrl, "GET", path, host);
      expectMisdirected(answer, path);
      expect(JSON.parse(answer.body).detail, path).toMatch(/'attacker\.example'.*ALLOWED_HOSTS/);
    }
    const form = await send(
      baseUrl,
      "POST",
      "/login",
      { ...host, origin: `http://attacker.example:${port}`, "content-type": "application/x-www-form-urlencoded" },
      "username=a&password=b",
    );
    expectMisdirected(form, "POST /login");
  });

  it("refuses a host relayed by the trusted proxy as X-Forwarded-Host, and a request without any Host", async () => {
    expectMisdirected(await send(baseUrl, "GET", "/api/auth/me", { host: `127.0.0.1:${port}`, "x-forwarded-host": "attacker.example" }), "X-Forwarded-Host");
    // Node itself refuses an HTTP/1.1 request without Host (400) before the app sees it.
    expect((await send(baseUrl, "GET", "/", {})).status, "no Host").toBe(400);
  });

  it("answers localhost, loopback and other IP addresses, and the machine's own name", async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST.:${port}`, `10.1.2.3:${port}`, os.hostname()]) {
      expect((await send(baseUrl, "GET", "/login", { host })).status, host).toBe(200);
    }
    const { answer } = signUpAs(baseUrl, `localhost:${port}`, { "x-forwarded-for": uniqueIp() });
    expect((await answer).status).toBe(201);
  });

  it("answers the health probes whatever the Host (load balancers probe by address or by their own names)", async () => {
    for (const path of ["/healthz", "/readyz"]) {
      expect((await send(baseUrl, "GET", path, { host: "internal-lb.example" })).status, path).toBe(200);
    }
  });
});

describe("PUBLIC_URL and ALLOWED_HOSTS (an app of its own)", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({
      DATABASE_URL: await createOwnDatabase(),
      DATA_DIR: tempDir("allowed-hosts"),
      PUBLIC_URL: "https://studio.example.com",
      ALLOWED_HOSTS: "studio-internal.example, Other.Example:8443",
    });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  it("answers PUBLIC_URL's host and every ALLOWED_HOSTS name (any port, any case), and nothing else", async () => {
    for (const host of ["studio.example.com", "studio-internal.example:8080", "other.example", "OTHER.EXAMPLE:8443"]) {
      expect((await send(app.url, "GET", "/login", { host })).status, host).toBe(200);
    }
    for (const host of ["attacker.example", "studio.example.com.attacker.example", "example.com"]) {
      expectMisdirected(await send(app.url, "GET", "/login", { host }), host);
    }
  });

  // First in this app's fresh database: without the rule, this first account would be the administrator.
  it("makes no administrator of a loopback sign-up when PUBLIC_URL is a public address (a proxy on this machine may hide who it is)", async () => {
    const { answer } = signUpAs(app.url, `127.0.0.1:${app.port}`);
    const created = await answer;
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body).role).toBe("user");
  });

  it("behind a proxy: the public host and https through X-Forwarded-*, with PUBLIC_URL's Origin, signs up", async () => {
    const body = JSON.stringify({ username: uniqueUsername("proxied"), password: "secret-123" });
    const headers = {
      host: `127.0.0.1:${app.port}`,
      "x-forwarded-host": "studio.example.com",
      "x-forwarded-proto": "https",
      "x-forwarded-for": uniqueIp(),
      origin: "https://studio.example.com",
      "content-type": "application/json",
    };
    const answer = await send(app.url, "POST", "/api/auth/signup", headers, body);
    expect(answer.status).toBe(201);
  });
});
