// The process-wide Kysely instance on postgres.js, plus migrations and a readiness probe.
import { Kysely, Migrator, sql, type MigrationProvider } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres, { type Sql } from "postgres";
import { migrations } from "./migrations/index";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

let instance: DB | undefined;
let client: Sql | undefined;

function createClient(url: string, poolSize: number, connection: Record<string, string> = {}): Sql {
  return postgres(url, {
    max: poolSize,
    connection,
    idle_timeout: 30,
    connect_timeout: 5,
    onnotice: () => {},
  });
}

/** A separate pool; `connection` sets server parameters for its sessions (e.g. synchronous_commit). */
export function createDb(url: string, poolSize = 10, connection: Record<string, string> = {}): DB {
  return new Kysely<Database>({ dialect: new PostgresJSDialect({ postgres: createClient(url, poolSize, connection) }) });
}

/** Opens the shared connection pool; call once at start-up. */
export function initDb(url: string, poolSize = 10): DB {
  client = createClient(url, poolSize);
  instance = new Kysely<Database>({ dialect: new PostgresJSDialect({ postgres: client }) });
  return instance;
}

/** The postgres.js client behind db(), for LISTEN (postgres.js gives listeners their own dedicated connection). */
export function sqlClient(): Sql {
  if (!client) throw new Error("Database not initialised: call initDb() first");
  return client;
}

export function db(): DB {
  if (!instance) throw new Error("Database not initialised: call initDb() first");
  return instance;
}

export async function closeDb(): Promise<void> {
  await instance?.destroy();
  instance = undefined;
  client = undefined;
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
