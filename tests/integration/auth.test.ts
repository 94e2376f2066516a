// Accounts over HTTP against the real server and PostgreSQL: sign-up rules, sign-in, sessions, throttling.
import postgres from "postgres";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client, signUpUser, uniqueIp, uniqueUsername } from "../support/client";

const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
afterAll(() => sql.end());

async function problemOf(response: Response) {
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  return (await response.json()) as { status: number; title: string; detail: string; errors?: Record<string, string[]> };
}

describe("POST /api/auth/signup", () => {
  it("creates the user, signs them in and answers 201 with the user object", async () => {
    const client = new Client();
    const username = uniqueUsername("New.User");
    const response = await client.post("/api/auth/signup", { username, password: "secret1" });
    expect(response.status).toBe(201);
    const user = await response.json();
    expect(user).toMatchObject({ username, role: "user", hasMoondreamApiKey: false, sharedKeyUsageCount: 0 });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(user.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const me = await client.get("/api/auth/me");
    expect(me.status).toBe(200);
    expect((await me.json()).id).toBe(user.id);
  });

  it.each([
    [{ password: "secret1" }, "username", "Username is required"],
    [{ username: "   ", password: "secret1" }, "username", "Username is required"],
    [{ username: "ab", password: "secret1" }, "username", "Username must be at least 3 characters"],
    [{ username: "a".repeat(33), password: "secret1" }, "username", "Username must be at most 32 characters"],
    [{ username: "bad name!", password: "secret1" }, "username", "Username may contain only letters, digits, '.', '_' and '-'"],
    [{ username: "valid_name" }, "password", "Password is required"],
    [{ username: "valid_name", password: "12345" }, "password", "Password must be at least 6 characters"],
    [{ username: "valid_name", password: "x".repeat(129) }, "password", "Password must be at most 128 characters"],
  ])("rejects %j with a 400 naming %s", async (body, field, message) => {
    const response = await new Client().post("/api/auth/signup", body);
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem.errors?.[field]).toContain(message);
  });

  it("refuses a username that differs only in case, and keeps the first account", async () => {
    const first = await signUpUser({ username: uniqueUsername("Case") });
    const response = await new Client().post("/api/auth/signup", { username: first.username.toUpperCase(), password: "another1" });
    expect(response.status).toBe(409);
    expect((await problemOf(response)).detail).toBe("That username is already taken.");
    const login = await new Client().post("/api/auth/login", { username: first.username, password: first.password });
    expect(login.status).toBe(200);
  });

  it("answers 415 for a body that is not JSON and 400 for malformed JSON", async () => {
    const client = new Client();
    const form = await client.request("POST", "/api/auth/signup", { body: "username=a", headers: { "content-type": "text/plain" } });
    expect(form.status).toBe(415);
    const broken = await client.request("POST", "/api/auth/signup", { body: "{", headers: { "content-type": "application/json" } });
    expect(broken.status).toBe(400);
    expect((await problemOf(broken)).detail).toBe("The request body is not valid JSON");
  });
});

describe("POST /api/auth/login", () => {
  it("signs in with the right password, ignoring the username's case", async () => {
    const user = await signUpUser();
    const client = new Client();
    const response = await client.post("/api/auth/login", { username: user.username.toUpperCase(), password: user.password });
    expect(response.status).toBe(200);
    expect((await response.json()).username).toBe(user.username);
    expect((await client.get("/api/auth/me")).status).toBe(200);
  });

  it("answers 401 'Invalid username or password' for a wrong password and an unknown user alike", async () => {
    const user = await signUpUser();
    const ip = uniqueIp();
    for (const body of [
      { username: user.username, password: "wrong-password" },
      { username: uniqueUsername("ghost"), password: "whatever1" },
    ]) {
      const response = await new Client(undefined, { "x-forwarded-for": ip }).post("/api/auth/login", body);
      expect(response.status).toBe(401);
      expect((await problemOf(response)).detail).toBe("Invalid username or password");
      expect(response.headers.get("set-cookie")).toBeNull();
    }
  });

  it("requires both fields", async () => {
    const response = await new Client().post("/api/auth/login", {});
    const problem = await problemOf(response);
    expect(response.status).toBe(400);
    expect(problem.errors).toEqual({ username: ["Username is required"], password: ["Password is required"] });
  });

  it("throttles a username at one address after 10 failures in the window, even with the right password, with Retry-After", async () => {
    const user = await signUpUser();
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) {
      const response = await new Client(undefined, { "x-forwarded-for": ip }).post("/api/auth/login", { username: user.username, password: `nope-${i}` });
      expect(response.status).toBe(401);
    }
    const blocked = await new Client(undefined, { "x-forwarded-for": ip }).post("/api/auth/login", { username: user.username, password: user.password });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await problemOf(blocked)).detail).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
  });

  it("throttles an IP address that fails across many usernames", async () => {
    const ip = uniqueIp();
    const client = new Client(undefined, { "x-forwarded-for": ip });
    for (let i = 0; i < 100; i++) {
      const response = await client.post("/api/auth/login", { username: uniqueUsername("spray"), password: "guess123" });
      expect(response.status).toBe(401);
    }
    const user = await signUpUser();
    const blocked = await client.post("/api/auth/login", { username: user.username, password: user.password });
    expect(blocked.status).toBe(429);
    const fromElsewhere = await new Client(undefined, { "x-forwarded-for": uniqueIp() }).post("/api/auth/login", { username: user.username, password: user.password });
    expect(fromElsewhere.status).toBe(200);
  });
});

describe("GET /api/auth/me and logout", () => {
  it("answers 401 problem JSON when anonymous", async () => {
    const response = await new Client().get("/api/auth/me");
    expect(response.status).toBe(401);
    expect((await problemOf(response)).status).toBe(401);
  });

  it("logout deletes the session: the old cookie no longer works", async () => {
    const user = await signUpUser();
    const stolenCookie = user.client.cookieHeader;
    const response = await user.client.post("/api/auth/logout");
    expect(response.status).toBe(204);
    expect((await user.client.get("/api/auth/me")).status).toBe(401);
    const replay = await fetch(new URL("/api/auth/me", inject("baseUrl")), { headers: { cookie: stolenCookie } });
    expect(replay.status).toBe(401);
  });

  it("rejects a forged or tampered session cookie", async () => {
    const user = await signUpUser();
    const tampered = user.client.cookieHeader.replace(/fw_session=([^;]+)/, (_m, value: string) => `fw_session=${value.slice(0, -2)}xx`);
    const response = await fetch(new URL("/api/auth/me", inject("baseUrl")), { headers: { cookie: tampered } });
    expect(response.status).toBe(401);
  });
});

describe("secrets at rest", () => {
  it("stores an argon2id hash, never the password, and only a digest of the session token", async () => {
    const user = await signUpUser({ password: "plain-text-canary-42" });
    const [row] = await sql`select password_hash from users where id = ${user.id}`;
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_hash).not.toContain("plain-text-canary-42");
    const token = decodeURIComponent(/fw_session=([^;]+)/.exec(user.client.cookieHeader)![1]!);
    const sessions = await sql`select id from sessions where user_id = ${user.id}`;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.id).toMatch(/^[0-9a-f]{64}$/);
    expect(token).not.toContain(sessions[0]!.id);
    const dump = JSON.stringify(await sql`select * from users join sessions on sessions.user_id = users.id where users.id = ${user.id}`);
    expect(dump).not.toContain("plain-text-canary-42");
  });
});

describe("CSRF", () => {
  it("refuses a mutation whose Origin is another site, even with a valid session", async () => {
    const user = await signUpUser();
    const response = await user.client.post("/api/feature-requests", { title: "x", description: "y" }, { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect((await problemOf(response)).detail).toMatch(/Cross-site request refused/);
  });

  it("refuses a cross-site form post to the login page", async () => {
    const response = await new Client().request("POST", "/login", {
      body: new URLSearchParams({ username: "someone", password: "secret1" }),
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(403);
  });

  it("accepts the same request from the site's own origin", async () => {
    const user = await signUpUser();
    const response = await user.client.post("/api/feature-requests", { title: "Same origin", description: "ok" }, { origin: inject("baseUrl") });
    expect(response.status).toBe(201);
  });
});
