// "Watch with local vision" (issue 30): per IP camera, the server's always-on pipeline (decode, motion, detector,
// tracker, lines and zones) runs while `enabled`, whatever browser is open. One row per watched camera, made on the
// first change; `stats` is what the process running the pipeline last measured (decode and detect rates, drops,
// detector time, CPU), written every few seconds so any process can answer the camera card and /metrics.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("camera_watches")
    .addColumn("camera_id", "uuid", (c) => c.primaryKey().references("cameras.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("labels", "jsonb", (c) => c.notNull()) // the classes it watches for (the detector's names)
    .addColumn("fps", "integer", (c) => c.notNull().check(sql`fps between 1 and 15`))
    .addColumn("width", "integer", (c) => c.notNull().check(sql`width between 320 and 1280`))
    .addColumn("stats", "jsonb")
    .addColumn("stats_at", "timestamptz")
    .addColumn("last_event_at", "timestamptz")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("camera_watches_enabled").on("camera_watches").column("camera_id").where(sql.ref("enabled"), "=", true).execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
