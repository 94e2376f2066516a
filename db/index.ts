// The process-wide Kysely instance on postgres.js, plus migrations and a readiness probe.
import { Kysely, Migrator, sql, type MigrationProvider } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres, { type Sql } from "postgres";
import { migrations } from "./migrations/index";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

let instance: DB | undefined;
let clientUrl: string | undefined;

/** How long a query may wait for a pooled connection before it fails as CONNECT_TIMEOUT (the API answers 503). */
const RESERVE_TIMEOUT_MS = 10_000;

/**
 * Kysely takes a connection with reserve() for every query. In postgres.js 3.4.9 a reserve waiting while the pool's
 * connections die (a PostgreSQL restart) can be dropped and never settle (porsager/postgres#1195), which left requests
 * waiting forever (found by `npm run test:faults`). Bounded here: it fails after RESERVE_TIMEOUT_MS, and a connection
 * that arrives after that is handed straight back.
 */
function boundReserve(sql: Sql): Sql {
  const reserve = sql.reserve.bind(sql);
  sql.reserve = () =>
    new Promise((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        reject(Object.assign(new Error(`no database connection within ${RESERVE_TIMEOUT_MS / 1000} s`), { code: "CONNECT_TIMEOUT" }));
      }, RESERVE_TIMEOUT_MS);
      reserve().then(
        (reserved) => {
          clearTimeout(timer);
          if (timedOut) reserved.release();
          else resolve(boundQueries(reserved));
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (!timedOut) reject(error as Error);
        },
      );
    });
  return sql;
}

/** How long one query may run before it fails as QUERY_TIMEOUT (the API answers 503). Our queries take milliseconds. */
const QUERY_TIMEOUT_MS = 15_000;

/**
 * A query sent on a connection that PostgreSQL terminates at the wrong moment can be lost by postgres.js 3.4.9 and
 * never settle, leaving its request unanswered for good (found by tests/integration/database-restart.test.ts, about
 * one run in three). Every query Kysely runs is bounded here; the connection goes back to the pool, which drops it
 * once its socket is known dead.
 */
function boundQueries<T extends postgres.ReservedSql>(reserved: T): T {
  const unsafe = reserved.unsafe.bind(reserved);
  reserved.unsafe = ((...args: Parameters<typeof unsafe>) => {
    const query = unsafe(...args);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`query unanswered within ${QUERY_TIMEOUT_MS / 1000} s`), { code: "QUERY_TIMEOUT" })), QUERY_TIMEOUT_MS);
    });
    return Promise.race([query, timeout]).finally(() => clearTimeout(timer));
  }) as unknown as T["unsafe"];
  return reserved;
}

function createClient(url: string, poolSize: number, connection: Record<string, string> = {}): Sql {
  return boundReserve(
    postgres(url, {
      max: poolSize,
      connection,
      idle_timeout: 30,
      connect_timeout: 5,
      // Reconnect attempts at most ~1 s apart. postgres.js's default backoff grows with every failed attempt of any
      // connection of the pool (3^n / 100 s, up to 20 s), so after a short database restart the pool stayed idle,
      // and requests waited, for up to 20 s (found by `npm run test:faults`).
      backoff: (attempt: number) => Math.min(1, 0.05 * 2 ** attempt) * (0.5 + Math.random() / 2),
      onnotice: () => {},
    }),
  );
}

/** A separate pool; `connection` sets server parameters for its sessions (e.g. synchronous_commit). */
export function createDb(url: string, poolSize = 10, connection: Record<string, string> = {}): DB {
  return new Kysely<Database>({ dialect: new PostgresJSDialect({ postgres: createClient(url, poolSize, connection) }) });
}

/** Opens the shared connection pool; call once at start-up. */
export function initDb(url: string, poolSize = 10): DB {
  clientUrl = url;
  instance = new Kysely<Database>({ dialect: new PostgresJSDialect({ postgres: createClient(url, poolSize) }) });
  return instance;
}

/** The URL db() was opened with, for a connection of its own (db/listener.ts). */
export function databaseUrl(): string {
  if (!clientUrl) throw new Error("Database not initialised: call initDb() first");
  return clientUrl;
}

export function db(): DB {
  if (!instance) throw new Error("Database not initialised: call initDb() first");
  return instance;
}

export async function closeDb(): Promise<void> {
  await instance?.destroy();
  instance = undefined;
  clientUrl = undefined;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(database: DB): Promise<string[]> {
  const migrator = new Migrator({ db: database, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

export async function isDatabaseReachable(database: DB): Promise<boolean> {
  try {
    await sql`select 1`.execute(database);
    return true;
  } catch {
    return false;
  }
}
