// The app survives its database connections dying under load (what a PostgreSQL restart or failover does): it
// answers 503 problem JSON meanwhile — never a 500, never a crash — and serves normally right after, without a
// restart. Caught postgres.js 3.4.9 bugs (patched by patches/postgres+3.4.9.patch, see there): a write on a closed socket
// and an unhandled rejection that killed the process, dead connections handed back to the pool that failed every
// later query, and waiting requests that were never answered. A query lost on a dying connection is answered 503
// after QUERY_TIMEOUT_MS (db/index.ts), hence the generous polls: one such round waits ~15 s.
import postgres from "postgres";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { signUpUser, type TestUser } from "../support/client";
import { jpegDataUrl } from "../support/images";
import { startApp, tempDir, type TestApp } from "../support/stack";

let app: TestApp;
let admin: postgres.Sql;
let database: string;
let user: TestUser;

beforeAll(async () => {
  admin = postgres(inject("postgresAdminUrl"), { max: 1, onnotice: () => {} });
  database = `fw_restart_${Math.random().toString(36).slice(2, 10)}`;
  await admin.unsafe(`create database "${database}"`);
  const url = new URL(inject("postgresAdminUrl"));
  url.pathname = `/${database}`;
  app = await startApp({ DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: "4", DATA_DIR: tempDir("db-restart") });
  user = await signUpUser({ baseUrl: app.url });
});
afterAll(async () => {
  await app?.stop();
  await admin?.unsafe(`drop database if exists "${database}" with (force)`);
  await admin?.end();
});

it("answers 503 while its connections are killed, then recovers by itself", async () => {
  const imageData = await jpegDataUrl(64, 48);
  const statuses: number[] = [];
  let running = true;
  const load = async () => {
    while (running) {
      const response = await (Math.random() < 0.3 ? user.client.post("/api/photos", { imageData, captureMode: "single" }) : user.client.get("/api/photos?limit=10"));
      statuses.push(response.status);
      if (response.status >= 500) expect(response.headers.get("content-type")).toContain("application/problem+json");
      await response.arrayBuffer();
    }
  };
  const clients = Array.from({ length: 8 }, load);
  // Kill every connection of the app's database a few times, mid-query.
  for (let round = 0; round < 10; round++) {
    const seen = statuses.length;
    await expect.poll(() => statuses.length, { timeout: 40_000 }).toBeGreaterThan(seen + 4);
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${database} and pid <> pg_backend_pid()`;
  }
  running = false;
  await Promise.all(clients);

  expect(app.process.exitCode).toBeNull(); // still running: no crash
  expect(statuses.filter((s) => s !== 200 && s !== 201 && s !== 503)).toEqual([]);
  // Right after, everything works again: every one of a burst of requests. Within the app's own bounds: a query lost
  // on a connection killed in the last round holds it until QUERY_TIMEOUT_MS (15 s), and /readyz's wait for a free
  // connection meanwhile is bounded by RESERVE_TIMEOUT_MS (10 s); a 15 s poll could end inside that window.
  await expect.poll(async () => (await fetch(`${app.url}/readyz`)).status, { timeout: 30_000 }).toBe(200);
  const burst = await Promise.all(Array.from({ length: 12 }, () => user.client.get("/api/photos?limit=10")));
  expect(burst.map((r) => r.status)).toEqual(Array(12).fill(200));
}, 240_000);
