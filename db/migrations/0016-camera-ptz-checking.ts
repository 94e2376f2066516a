// IP cameras (issue 27): PTZ discovery runs after the camera is added (a queued job), off the add request's critical
// path; until it ends the camera says "checking PTZ…".
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("cameras")
    .addColumn("ptz_checking", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
