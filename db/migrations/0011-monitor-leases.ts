// Monitors (issue 18): a tick's lease, so a monitor never runs two ticks at once across app processes (a
// lease lapses on its own when the process running the tick dies), and when its last photo was saved, so
// the minimum gap between auto-captures holds across restarts.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("monitors")
    .addColumn("lease_until", "timestamptz") // a tick runs until then at most; null when none runs
    .addColumn("last_saved_at", "timestamptz") // when the last auto-capture photo was saved (started)
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
