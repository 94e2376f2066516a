// PTZ follow on the server (issue 30): per watched PTZ IP camera, the follow setting (app/schemas/watch.ts's
// followInputSchema, null until first set) and when a manual PTZ command paused it (null: not paused). The pause is
// a column, so every process reads it, and a NOTIFY so the process that follows stops within a moment.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("camera_watches").addColumn("follow", "jsonb").addColumn("follow_paused_at", "timestamptz").execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
