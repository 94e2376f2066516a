// Webhook deliveries become their own outbox: a delivery row is due when next_attempt_at has come, and a
// worker claims a batch of due rows with FOR UPDATE SKIP LOCKED, holding each for a lease (claimed_until)
// instead of one graphile-worker job per attempt. A worker that dies mid-batch leaves rows whose lease
// simply runs out, after which any worker claims them again.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("webhook_deliveries").addColumn("claimed_until", "timestamptz").execute();
  // Room in each page for a claim's new row version next to the old one (a HOT update: claimed_until is
  // in no index), so claiming a row writes no index entries.
  await sql`alter table webhook_deliveries set (fillfactor = 80)`.execute(db);
  // Rows queued before this migration were pending without a time: due now.
  await sql`update webhook_deliveries set next_attempt_at = created_at where status = 'pending' and next_attempt_at is null`.execute(db);
  // The claim's scan: only unfinished rows, oldest due first; finished rows (the log) stay out of it.
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status in ('pending', 'retrying')`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
