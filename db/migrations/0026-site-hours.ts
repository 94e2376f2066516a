// Long reports read fewer rows (issue 31's year by day). A site's entries and exits per UTC hour through its doors
// (server/insights/site-hours.ts): a year's report of a site reads 24 rows a day instead of every door's hourly
// rollup; `hours_doors` names the doors (and which way each enters) the rows were built for, and a report whose doors
// differ reads the rollups and books a rebuild. Zones' dwell histograms per UTC day beside the hourly ones, filled
// from them here and kept with them as exits arrive: a year reads whole days and only the hours at its two ends.
import { sql, type Kysely } from "kysely";

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

  await db.schema
    .createTable("vision_dwell_days")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("camera_id", "uuid", (c) => c.notNull().references("cameras.id").onDelete("cascade"))
    .addColumn("zone_id", "uuid", (c) => c.notNull().references("vision_zones.id").onDelete("cascade"))
    .addColumn("day", "date", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("bucket", "integer", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("vision_dwell_days_pkey", ["zone_id", "day", "label", "bucket"])
    .execute();
  await db.schema.createIndex("vision_dwell_days_time").on("vision_dwell_days").columns(["user_id", "day"]).execute();
  await sql`insert into vision_dwell_days (user_id, camera_id, zone_id, day, label, bucket, count)
    select user_id, camera_id, zone_id, (hour at time zone 'UTC')::date, label, bucket, sum(count)
    from vision_dwell_hours group by 1, 2, 3, 4, 5, 6`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
