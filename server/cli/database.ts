// Opens the configured database (or starts the embedded one) for a command-line tool, migrated, and closes it after.
import { startEmbeddedPostgres, type EmbeddedDatabase } from "#db/embedded";
import { closeDb, db, initDb, migrate, type DB } from "#db/index";
import { config } from "../config";

export async function withDatabase<T>(run: (db: DB) => Promise<T>): Promise<T> {
  const { database } = config();
  let embedded: EmbeddedDatabase | undefined;
  try {
    if (!database.url) embedded = await startEmbeddedPostgres({ dir: database.embeddedDir, port: database.embeddedPort });
    initDb(database.url ?? embedded!.url, 2);
    await migrate(db());
    return await run(db());
  } finally {
    await closeDb();
    await embedded?.stop();
  }
}
