// The sign-in throttle under attack: parallel guesses that all arrive before any failure is recorded, a stranger
// trying to lock the owner out, and guesses spread over many addresses. Client addresses vary through
// X-Forwarded-For, which the test apps trust from loopback (TRUST_PROXY=loopback).
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Client, signUpUser, uniqueIp, uniqueUsername } from "../support/client";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";

const baseUrl = inject("baseUrl");
const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
afterAll(() => sql.end());

/** The defaults (the shared app leaves them alone). */
const PER_USERNAME_AND_IP = 10;

function signInFrom(ip: string, username: string, password: string, url = baseUrl) {
  return new Client(url, { "x-forwarded-for": ip }).post("/api/auth/login", { username, password });
}

async function statuses(responses: Array<Promise<Response>>): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  for (const response of await Promise.all(responses)) {
    counts[response.status] = (counts[response.status] ?? 0) + 1;
    if (response.status === 429) {
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    await response.body?.cancel();
  }
  return counts;
}

describe("sign-in throttle on the shared app (default limits)", () => {
  it("verifies at most the per-address limit of 30 parallel wrong passwords for one account; the rest get 429", async () => {
    const victim = await signUpUser();
    const attacker = uniqueIp();
    const counts = await statuses(Array.from({ length: 30 }, (_, i) => signInFrom(attacker, victim.username, `wrong-${i}`)));
    expect(counts).toEqual({ 401: PER_USERNAME_AND_IP, 429: 30 - PER_USERNAME_AND_IP });
    // Refused guesses were never counted, not even against the account's ceiling over all addresses.
    const [ceiling] = await sql<{ attempts: number }[]>`select attempts from attempt_counters where key = ${`signin:user:${victim.username.toLowerCase()}`}`;
    expect(ceiling?.attempts).toBe(counts[401]);
  });

  it("throttles an unknown username exactly like a real one (no account enumeration)", async () => {
    const ghost = uniqueUsername("ghost");
    const ip = uniqueIp();
    for (let i = 0; i < PER_USERNAME_AND_IP; i++) expect((await signInFrom(ip, ghost, `nope-${i}`)).status).toBe(401);
    const blocked = await signInFrom(ip, ghost, "nope-x");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("lets the owner in from another address while a stranger's guesses block only the stranger's", async () => {
    const owner = await signUpUser();
    const stranger = uniqueIp();
    for (let i = 0; i < PER_USERNAME_AND_IP; i++) expect((await signInFrom(stranger, owner.username, `guess-${i}`)).status).toBe(401);
    // Even the right password is refused from the stranger's address…
    const refused = await signInFrom(stranger, owner.username, owner.password);
    expect(refused.status).toBe(429);
    expect((await refused.json()).detail).toMatch(/Too many failed sign-in attempts/);
    // …but the owner, elsewhere, signs in at once.
    expect((await signInFrom(uniqueIp(), owner.username, owner.password)).status).toBe(200);
  });

  it("throttles the sign-in form too, and lets the right password in once the window has passed", async () => {
    const victim = await signUpUser();
    const ip = uniqueIp();
    for (let i = 0; i < PER_USERNAME_AND_IP; i++) expect((await signInFrom(ip, victim.username, `wrong-${i}`)).status).toBe(401);
    const form = await new Client().request("POST", "/login", {
      body: new URLSearchParams({ username: victim.username, password: victim.password }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, "x-forwarded-for": ip },
    });
    expect(form.status).toBe(429);
    expect(form.headers.get("set-cookie") ?? "", "the form must not sign in while throttled").not.toMatch(/fw_session=[^;]/);
    expect(await form.text()).toMatch(/Too many failed sign-in attempts/);
    // The window passes (moved back in the database rather than waited for).
    await sql`update attempt_counters set window_started_at = window_started_at - interval '16 minutes' where key = ${`signin:pair:${ip} ${victim.username.toLowerCase()}`}`;
    expect((await signInFrom(ip, victim.username, victim.password)).status).toBe(200);
  });

  it("forgives an address's mistakes on one account once the right password comes from it", async () => {
    const owner = await signUpUser();
    const ip = uniqueIp();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < PER_USERNAME_AND_IP - 1; i++) expect((await signInFrom(ip, owner.username, `typo-${i}`)).status).toBe(401);
      expect((await signInFrom(ip, owner.username, owner.password)).status).toBe(200);
    }
  });
});

describe("sign-in throttle across accounts and addresses (an app with small limits)", () => {
  let app: TestApp;
  const PER_IP = 12;
  const PER_USERNAME = 15;

  beforeAll(async () => {
    app = await startApp({
      DATABASE_URL: await createOwnDatabase(),
      DATA_DIR: tempDir("signin-throttle"),
      SIGNIN_MAX_FAILURES_PER_USERNAME_AND_IP: "5",
      SIGNIN_MAX_FAILURES_PER_IP: String(PER_IP),
      SIGNIN_MAX_FAILURES_PER_USERNAME: String(PER_USERNAME),
    });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  it("verifies at most the per-address limit of 30 parallel guesses at 30 accounts from one address", async () => {
    const ip = uniqueIp();
    const counts = await statuses(Array.from({ length: 30 }, (_, i) => signInFrom(ip, `someone_${i}`, "guess", app.url)));
    expect(counts).toEqual({ 401: PER_IP, 429: 30 - PER_IP });
  });

  it("verifies at most the account's ceiling of 30 parallel guesses from 30 addresses, then refuses every address", async () => {
    const victim = await signUpUser({ baseUrl: app.url });
    const counts = await statuses(Array.from({ length: 30 }, (_, i) => signInFrom(uniqueIp(), victim.username, `spread-${i}`, app.url)));
    expect(counts).toEqual({ 401: PER_USERNAME, 429: 30 - PER_USERNAME });
    expect((await signInFrom(uniqueIp(), victim.username, "one-more", app.url)).status).toBe(429);
  });
});
