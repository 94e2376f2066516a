// Local vision (issue 19): the zones (polygons) and lines (directed segments) drawn on a camera's picture, the
// per-minute counts the studio's on-device tracker reports for them, and alert rules on their events.
// Geometry is normalised to the picture (0–1) and validated by app/schemas/local-vision.ts before it is stored.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["vision_zones", "vision_lines"] as const) {
    await db.schema
      .createTable(table)
      .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("camera_id", "uuid", (c) => c.notNull().references("cameras.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      // zones: [{x,y}…] (3–32 points); lines: {a:{x,y}, b:{x,y}}
      .addColumn("geometry", "jsonb", (c) => c.notNull())
      .addColumn("labels", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`)) // classes counted; empty: all
      .addColumn("anchor", "text", (c) => c.notNull().defaultTo("bottom-centre"))
      // zones: inertia frames; lines: settle frames (k)
      .addColumn("frames", "integer", (c) => c.notNull().defaultTo(3))
      .addColumn("loiter_seconds", "integer") // zones only: null or 0 never loiters
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex(`${table}_camera`).on(table).columns(["user_id", "camera_id"]).execute();
  }

  // One row per camera, line or zone, minute, class and kind (in/out for lines; entered/exited/loitering for zones).
  // A line or zone's reset deletes its rows; deleting it cascades.
  await db.schema
    .createTable("vision_counts")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("camera_id", "uuid", (c) => c.notNull().references("cameras.id").onDelete("cascade"))
    .addColumn("line_id", "uuid", (c) => c.references("vision_lines.id").onDelete("cascade"))
    .addColumn("zone_id", "uuid", (c) => c.references("vision_zones.id").onDelete("cascade"))
    .addColumn("minute", "timestamptz", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('in', 'out', 'entered', 'exited', 'loitering')`))
    .addColumn("count", "integer", (c) => c.notNull())
    .addCheckConstraint("vision_counts_one_target", sql`(line_id is null) <> (zone_id is null)`)
    .execute();
  // coalesce: one key for a line's row and a zone's row alike, so an event batch upserts with ON CONFLICT.
  await sql`create unique index vision_counts_key on vision_counts (camera_id, coalesce(line_id, zone_id), minute, label, kind)`.execute(db);
  await db.schema.createIndex("vision_counts_time").on("vision_counts").columns(["user_id", "camera_id", "minute"]).execute();

  // Alert rules on local-vision events: object is the class filter (null: any), as for detection rules, and
  // target_id the one line or zone watched (null: any of the user's). No foreign key: it names either table; a
  // rule whose line or zone was deleted never fires.
  await db.schema.alterTable("alert_rules").addColumn("target_id", "uuid").execute();
  await sql`alter table alert_rules drop constraint alert_rules_kind_check`.execute(db);
  await sql`alter table alert_rules add constraint alert_rules_kind_check check (kind in ('detection', 'people_count', 'line_crossed', 'zone_entered', 'zone_exited', 'zone_loitering'))`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
