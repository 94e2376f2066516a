// The ids of the local-vision event batches received in the last day, so a batch the studio sends again after
// losing the answer (the server had stored it) is counted, published and alerted on once.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("vision_event_batches")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("id", "uuid", (c) => c.notNull())
    .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("vision_event_batches_pkey", ["user_id", "id"])
    .execute();
  await db.schema.createIndex("vision_event_batches_received").on("vision_event_batches").column("received_at").execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
