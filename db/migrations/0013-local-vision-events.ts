// Local vision, second half (issue 19): what a line or zone does when it fires (save a photo of the event, ask
// Moondream to describe it), the description kept on that photo, people-count sessions counted on the device,
// and the calls each AI feature spends per hour (so the studio can show what local mode saves).
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["vision_zones", "vision_lines"] as const) {
    await db.schema
      .alterTable(table)
      .addColumn("capture_photo", "boolean", (c) => c.notNull().defaultTo(false))
      // The question put to Moondream about the event's frame; null: no call.
      .addColumn("describe_prompt", "text")
      .execute();
  }

  // Moondream's answer about the photo's frame (an event's "describe with Moondream").
  await db.schema.alterTable("photos").addColumn("description", "text").execute();

  // Who counted: Moondream per snapshot, or the on-device detector sampled at the session's interval.
  await db.schema
    .alterTable("count_sessions")
    .addColumn("source", "text", (c) =>
      c
        .notNull()
        .defaultTo("moondream")
        .check(sql`source in ('moondream', 'local')`),
    )
    .execute();

  // Moondream calls made per user, hour and feature (app/schemas/vision.ts AI_FEATURES): one upsert per call.
  await db.schema
    .createTable("vision_call_hours")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("hour", "timestamptz", (c) => c.notNull())
    .addColumn("feature", "text", (c) => c.notNull())
    .addColumn("calls", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("vision_call_hours_pkey", ["user_id", "hour", "feature"])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
