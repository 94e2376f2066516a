// Closing a pool while a query is still running: the query finishes and destroy() settles (patches/postgres+3.4.9.patch,
// item 5). Unpatched, postgres.js waited forever for the reserved connection Kysely had taken for the query, and the
// app's stop hung until its forced exit (exit 1) whenever a queue query was in flight (tests/integration/startup.test.ts).
import { sql } from "kysely";
import postgres from "postgres";
import { afterAll, expect, it } from "vitest";
import { createOwnDatabase, until } from "../tests/support/webhook-receiver";
import { createDb } from "./index";

const holder = { sql: undefined as postgres.Sql | undefined };
afterAll(async () => {
  await holder.sql?.end();
});

it("destroy() waits for a query in flight, then closes the pool", async () => {
  const url = await createOwnDatabase();
  // Another session holds an advisory lock, so the pool's query is in flight for as long as this test wants.
  const other = (holder.sql = postgres(url, { max: 2, onnotice: () => {} }));
  const locked = await other.reserve();
  await locked`select pg_advisory_lock(42)`;
  const database = createDb(url, 2);
  const query = sql<{ ok: number }>`select 1 as ok from pg_advisory_lock(42)`.execute(database);
  await until(
    () => other`select count(*)::int as n from pg_stat_activity where wait_event = 'advisory' and datname = current_database()`,
    (rows) => rows[0]?.n === 1,
  );
  const destroyed = database.destroy();
  await locked`select pg_advisory_unlock(42)`;
  locked.release();
  expect((await query).rows).toEqual([{ ok: 1 }]);
  await destroyed; // hung here before the patch (the test's timeout fails it)
}, 20_000);
