// Insights (issue 31): sites (cameras and their doors under one time zone), their services and opening hours, the
// hourly and daily rollups of local vision's per-minute counts, the zones' dwell-time histogram, each user's Insights
// settings (time zone, how long minutes are kept), read-only share links and scheduled e-mail reports.
import { sql, type Kysely } from "kysely";

const COUNT_KINDS = sql`kind in ('in', 'out', 'entered', 'exited', 'loitering')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sites")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("day_starts_at", "integer", (c) =>
      c
        .notNull()
        .defaultTo(4)
        .check(sql`day_starts_at between 0 and 23`),
    )
    .addColumn("capacity", "integer")
    // [{lineId, entering: "in" | "out"}]; empty: every line of the site's cameras, "in" entering
    .addColumn("doors", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("sites_user").on("sites").column("user_id").execute();

  // A camera is in at most one site: its daily rollup is in that site's time zone.
  await db.schema
    .createTable("site_cameras")
    .addColumn("camera_id", "uuid", (c) => c.primaryKey().references("cameras.id").onDelete("cascade"))
    .addColumn("site_id", "uuid", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .execute();
  await db.schema.createIndex("site_cameras_site").on("site_cameras").column("site_id").execute();

  await db.schema
    .createTable("site_windows")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("site_id", "uuid", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('weekly', 'once', 'closed')`))
    .addColumn("weekdays", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`)) // 0 = Sunday … 6 = Saturday
    .addColumn("starts_at", "text", (c) => c.notNull()) // HH:MM local
    .addColumn("ends_at", "text", (c) => c.notNull())
    .addColumn("date", "text", (c) => c.check(sql`date ~ '^\\d{4}-\\d{2}-\\d{2}$'`)) // once, closed: YYYY-MM-DD
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("site_windows_site").on("site_windows").column("site_id").execute();

  // The rollups of vision_counts, recomputed from the minutes by the insights_rollup job (server/insights/rollup.ts):
  // hours in UTC; days as the local date in the camera's time zone (`time_zone`, its site's or the user's setting).
  for (const [table, column, type] of [
    ["vision_count_hours", "hour", "timestamptz"],
    ["vision_count_days", "day", "date"],
  ] as const) {
    let builder = db.schema
      .createTable(table)
      .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("camera_id", "uuid", (c) => c.notNull().references("cameras.id").onDelete("cascade"))
      .addColumn("line_id", "uuid", (c) => c.references("vision_lines.id").onDelete("cascade"))
      .addColumn("zone_id", "uuid", (c) => c.references("vision_zones.id").onDelete("cascade"))
      .addColumn(column, type, (c) => c.notNull())
      .addColumn("label", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull().check(COUNT_KINDS))
      .addColumn("count", "integer", (c) => c.notNull())
      .addCheckConstraint(`${table}_one_target`, sql`(line_id is null) <> (zone_id is null)`);
    if (table === "vision_count_days") builder = builder.addColumn("time_zone", "text", (c) => c.notNull());
    await builder.execute();
    await sql`create unique index ${sql.raw(`${table}_key`)} on ${sql.table(table)} (camera_id, coalesce(line_id, zone_id), ${sql.ref(column)}, label, kind)`.execute(db);
    await db.schema.createIndex(`${table}_time`).on(table).columns(["user_id", column]).execute();
  }

  // The (camera, hour) pairs whose minutes changed since their rollup: filled in the events' transaction, emptied by the job.
  await db.schema
    .createTable("insight_rollup_queue")
    .addColumn("camera_id", "uuid", (c) => c.notNull().references("cameras.id").onDelete("cascade"))
    .addColumn("hour", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("insight_rollup_queue_pkey", ["camera_id", "hour"])
    .execute();

  // Exits from a zone by time spent inside (app/schemas/insights.ts DWELL_BUCKETS), per UTC hour.
  await db.schema
    .createTable("vision_dwell_hours")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("camera_id", "uuid", (c) => c.notNull().references("cameras.id").onDelete("cascade"))
    .addColumn("zone_id", "uuid", (c) => c.notNull().references("vision_zones.id").onDelete("cascade"))
    .addColumn("hour", "timestamptz", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("bucket", "integer", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("vision_dwell_hours_pkey", ["zone_id", "hour", "label", "bucket"])
    .execute();
  await db.schema.createIndex("vision_dwell_hours_time").on("vision_dwell_hours").columns(["user_id", "hour"]).execute();

  await db.schema
    .createTable("insight_settings")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("minute_retention_days", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("insight_shares")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('report', 'widget')`))
    .addColumn("view", "jsonb", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("revoked_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("insight_shares_user").on("insight_shares").column("user_id").execute();

  await db.schema
    .createTable("insight_schedules")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("frequency", "text", (c) => c.notNull().check(sql`frequency in ('weekly', 'monthly')`))
    .addColumn("recipients", "jsonb", (c) => c.notNull())
    .addColumn("view", "jsonb", (c) => c.notNull())
    .addColumn("next_run_at", "timestamptz", (c) => c.notNull())
    .addColumn("last_sent_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("insight_schedules_due").on("insight_schedules").column("next_run_at").execute();

  // The counts kept so far get their rollups now (days in UTC until the user sets a time zone or a site).
  await sql`insert into vision_count_hours (user_id, camera_id, line_id, zone_id, hour, label, kind, count)
    select user_id, camera_id, line_id, zone_id, date_trunc('hour', minute, 'UTC'), label, kind, sum(count)
    from vision_counts group by 1, 2, 3, 4, 5, 6, 7`.execute(db);
  await sql`insert into vision_count_days (user_id, camera_id, line_id, zone_id, day, label, kind, count, time_zone)
    select user_id, camera_id, line_id, zone_id, (minute at time zone 'UTC')::date, label, kind, sum(count), 'UTC'
    from vision_counts group by 1, 2, 3, 4, 5, 6, 7`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
