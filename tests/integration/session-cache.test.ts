// The session cache across app processes: two app servers on one database, each caching sessions for an hour
// (SESSION_CACHE_SECONDS=3600), so only the LISTEN/NOTIFY invalidation can make either see a change in time.
// Sign-out, account deletion, role (from the admin CLI, a third process), key and free-call changes made through
// one are seen by the other within a bounded wait, and by the process that made them at once; a lost LISTEN
// connection empties the cache rather than leaving it serving what it can no longer hear about.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { CurrentUser } from "#app/schemas/auth";
import { startFakeMoondream, type FakeMoondream } from "../fakes/moondream/server";
import { Client, signUpUser, type TestUser } from "../support/client";
import { ROOT, startApp, tempDir, type TestApp } from "../support/stack";
import { markerFrame } from "../support/vision";

let admin: postgres.Sql;
let sql: postgres.Sql;
let database: string;
let databaseUrl: string;
let fake: FakeMoondream;
let one: TestApp;
let two: TestApp;
let frame: string;
const secrets = { ENCRYPTION_KEY: randomBytes(32).toString("base64"), SESSION_SECRET: randomBytes(32).toString("base64") };
/** Within this, a change must have reached the other process (notices take milliseconds; the cache keeps an hour). */
const BOUND = { timeout: 5_000 };

beforeAll(async () => {
  admin = postgres(inject("postgresAdminUrl"), { max: 1, onnotice: () => {} });
  database = `fw_sessions_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database "${database}"`);
  const url = new URL(inject("postgresAdminUrl"));
  url.pathname = `/${database}`;
  databaseUrl = url.toString();
  fake = await startFakeMoondream();
  const env = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: "4",
    SESSION_CACHE_SECONDS: "3600",
    MOONDREAM_ENDPOINT: fake.url,
    MOONDREAM_API_KEY: `shared-${randomBytes(4).toString("hex")}`,
    MOONDREAM_REQUESTS_PER_SECOND: "0",
    MOONDREAM_MAX_RETRIES: "0",
    ...secrets,
  };
  // One after the other: the first migrates the new database.
  one = await startApp({ ...env, DATA_DIR: tempDir("sessions-one") });
  two = await startApp({ ...env, DATA_DIR: tempDir("sessions-two") });
  await signUpUser({ baseUrl: one.url }); // the database's first account is its admin; the tests' users are not
  sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  frame = await markerFrame();
});
afterAll(async () => {
  await sql?.end();
  await Promise.all([one?.stop(), two?.stop()]);
  await fake?.close();
  await admin?.unsafe(`drop database if exists "${database}" with (force)`);
  await admin?.end();
});

const logged = (app: TestApp, text: string) => app.logs.join("").includes(text);
/** The app's LISTEN connection (db/listener.ts names it after the process). */
const listener = (app: TestApp) => `framewise-listen-${app.process.pid}`;
/** Resolves once the app's LISTEN is in effect (its cache turns on as the answer arrives). */
const cacheOn = (app: TestApp) =>
  expect
    .poll(async () => (await admin`select 1 from pg_stat_activity where application_name = ${listener(app)} and state = 'idle' and query ilike 'listen%'`).length, {
      timeout: 20_000,
    })
    .toBe(1);

/** The same session (its cookie) on another app process. */
const on = (app: TestApp, user: TestUser) => new Client(app.url, { cookie: user.client.cookieHeader });
const me = async (client: Client) => {
  const response = await client.get("/api/auth/me");
  return response.status === 200 ? ((await response.json()) as CurrentUser) : response.status;
};

/** Signs up through `one` and has both processes cache the session. */
async function cachedUser(): Promise<TestUser> {
  await Promise.all([cacheOn(one), cacheOn(two)]);
  const user = await signUpUser({ baseUrl: one.url });
  expect(await me(user.client)).toMatchObject({ id: user.id });
  expect(await me(on(two, user))).toMatchObject({ id: user.id });
  return user;
}

describe("the session cache across app processes", () => {
  it("serves from the cache: a change behind the app's back (no notice) is not seen", async () => {
    const user = await cachedUser();
    await sql`update users set role = 'admin' where id = ${user.id}`;
    expect(await me(on(two, user))).toMatchObject({ role: "user" });
    expect(await me(user.client)).toMatchObject({ role: "user" });
  });

  it("ends a session signed out on one process on the other too", async () => {
    const user = await cachedUser();
    const cookie = user.client.cookieHeader;
    expect((await user.client.post("/api/auth/logout")).status).toBe(204);
    expect(await me(new Client(one.url, { cookie }))).toBe(401); // at once where it was signed out
    await expect.poll(() => me(new Client(two.url, { cookie })), BOUND).toBe(401);
  });

  it("ends every session of a deleted account on both processes", async () => {
    const user = await cachedUser();
    const cookie = user.client.cookieHeader;
    expect((await user.client.request("DELETE", "/api/auth/me")).status).toBe(204);
    expect(await me(new Client(one.url, { cookie }))).toBe(401);
    await expect.poll(() => me(new Client(two.url, { cookie })), BOUND).toBe(401);
  });

  it("shows a role changed by the admin CLI (another process) on both", async () => {
    const user = await cachedUser();
    await promisify(execFile)(process.execPath, [path.join(ROOT, "bin/admin.js"), "grant", user.username], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        LOG_LEVEL: "silent",
        DATABASE_URL: databaseUrl,
        DATA_DIR: tempDir("sessions-cli"),
        ...secrets,
      },
    });
    await expect.poll(async () => ((await me(user.client)) as CurrentUser).role, BOUND).toBe("admin");
    await expect.poll(async () => ((await me(on(two, user))) as CurrentUser).role, BOUND).toBe("admin");
    // And the new role is what the server enforces, not just what it shows.
    expect((await on(two, user).get("/api/admin/users")).status).not.toBe(403);
  });

  it("shows a saved or forgotten Moondream key at once on the process that saved it, and soon on the other", async () => {
    const user = await cachedUser();
    expect((await user.client.post("/api/moondream/api-key", { apiKey: "own-key-123456" })).status).toBe(200);
    expect(await me(user.client)).toMatchObject({ hasMoondreamApiKey: true });
    await expect.poll(async () => ((await me(on(two, user))) as CurrentUser).hasMoondreamApiKey, BOUND).toBe(true);
    expect((await user.client.request("DELETE", "/api/moondream/api-key")).status).toBe(200);
    expect(await me(user.client)).toMatchObject({ hasMoondreamApiKey: false });
    await expect.poll(async () => ((await me(on(two, user))) as CurrentUser).hasMoondreamApiKey, BOUND).toBe(false);
  });

  it("keeps the free-call count live: a call counts at once where it was made and soon on the other; a failed one is given back", async () => {
    const user = await cachedUser();
    const count = async (client: Client) => ((await me(client)) as CurrentUser).sharedKeyUsageCount;
    expect(await count(user.client)).toBe(0);
    expect((await user.client.post("/api/moondream/point", { imageData: frame, object: "red" })).status).toBe(200);
    expect(await count(user.client)).toBe(1);
    await expect.poll(() => count(on(two, user)), BOUND).toBe(1);
    // Made on the other process this time; the provider fails it, so the call is given back.
    expect((await on(two, user).post("/api/moondream/point", { imageData: frame, object: "red" })).status).toBe(200);
    expect(await count(on(two, user))).toBe(2);
    await expect.poll(() => count(user.client), BOUND).toBe(2);
    fake.failNext(500);
    expect((await on(two, user).post("/api/moondream/point", { imageData: frame, object: "red" })).status).toBeGreaterThanOrEqual(500);
    expect(await count(on(two, user))).toBe(2);
    await expect.poll(() => count(user.client), BOUND).toBe(2);
  });

  it("empties the cache when its LISTEN connection is lost, since changes meanwhile would go unheard", async () => {
    const user = await cachedUser();
    await sql`update users set role = 'admin' where id = ${user.id}`; // behind the app's back: no notice
    expect(await me(on(two, user))).toMatchObject({ role: "user" }); // cached
    const [killed] = await admin`select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = ${listener(two)}`;
    expect(killed?.done).toBe(true);
    await expect.poll(() => logged(two, "session cache off"), BOUND).toBe(true);
    expect(await me(on(two, user))).toMatchObject({ role: "admin" });
    await cacheOn(two); // listening again, on a new connection
    await expect.poll(() => logged(two, "session cache back on"), BOUND).toBe(true);
  });
});
