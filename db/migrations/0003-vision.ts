// The vision service's state: the last scoreboard reading per user, which the public live feed serves.
// A `version` that only grows lets overlays drop out-of-order updates after a reconnect.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("scoreboard_readings")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("sport", "text", (c) => c.notNull().check(sql`sport in ('soccer', 'football', 'basketball')`))
    .addColumn("home_team", "text")
    .addColumn("home_score", "integer")
    .addColumn("away_team", "text")
    .addColumn("away_score", "integer")
    .addColumn("period", "text")
    .addColumn("time_remaining", "text")
    .addColumn("version", "bigint", (c) => c.notNull().defaultTo(1))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
