// The process-wide Kysely instance on postgres.js, plus migrations and a readiness probe.
import { Kysely, Migrator, sql, type MigrationProvider } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import { migrations } from "./migrations/index";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

let instance: DB | undefined;

export function createDb(url: string, poolSize = 10): DB {
  const client = postgres(url, {
    max: poolSize,
    idle_timeout: 30,
    connect_timeout: 5,
    onnotice: () => {},
  });
  return new Kysely<Database>({ dialect: new PostgresJSDialect({ postgres: client }) });
}

/** Opens the shared connection pool; call once at start-up. */
export function initDb(url: string, poolSize?: number): DB {
  instance = createDb(url, poolSize);
  return instance;
}

export function db(): DB {
  if (!instance) throw new Error("Database not initialised: call initDb() first");
  return instance;
}

export async function closeDb(): Promise<void> {
  await instance?.destroy();
  instance = undefined;
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
