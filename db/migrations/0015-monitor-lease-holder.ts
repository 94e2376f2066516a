// Monitors across app processes (issue 20): who holds (or last held) a monitor's tick lease, as the holding process's
// presence connection (backend pid and start), so the others see at once that the holder died and take its tick over
// instead of waiting for the lease's time to lapse.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("monitors")
    .addColumn("lease_pid", "integer") // null: a process without a presence connection (the lease's time alone counts)
    .addColumn("lease_backend_start", "timestamptz")
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
