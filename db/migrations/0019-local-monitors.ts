// Monitors on local vision (issue 30): a `local_capture` monitor runs inside its camera's always-on pipeline, saving a
// photo when a chosen class appears, enters a zone, crosses a line or loiters; it is never ticked by the job queue.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE monitors DROP CONSTRAINT monitors_kind_check`.execute(db);
  await sql`ALTER TABLE monitors ADD CONSTRAINT monitors_kind_check CHECK (kind in ('auto_capture', 'people_count', 'story', 'local_capture'))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
