// The state that lets several app processes share one Moondream key's limits: the next free pace slot per
// key (booked with one atomic statement on the database's clock) and the shared key's calls per UTC day.
// Keys are stored only as SHA-256 hashes.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("vision_pace_slots")
    .addColumn("key_hash", "text", (c) => c.primaryKey())
    .addColumn("next_slot", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("shared_key_daily_calls")
    .addColumn("key_hash", "text", (c) => c.notNull())
    .addColumn("day", "date", (c) => c.notNull())
    .addColumn("calls", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`calls >= 0`),
    )
    .addPrimaryKeyConstraint("shared_key_daily_calls_pkey", ["key_hash", "day"])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
