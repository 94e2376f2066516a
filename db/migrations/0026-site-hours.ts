// A site's entries and exits per UTC hour through its doors (server/insights/site-hours.ts): a year's report of a
// site reads 24 rows a day instead of every door's hourly rollup. `hours_doors` names the doors (and which way each
// enters) the rows were built for; a report whose doors differ reads the rollups and books a rebuild.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_hours")
    .addColumn("site_id", "uuid", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("hour", "timestamptz", (c) => c.notNull())
    .addColumn("entries", "integer", (c) => c.notNull())
    .addColumn("exits", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("site_hours_pkey", ["site_id", "hour"])
    .execute();
  // Null: not built yet (existing sites are built when their first report asks).
  await db.schema.alterTable("sites").addColumn("hours_doors", "text").execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
