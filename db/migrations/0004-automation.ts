// Automation: the webhook signing secret and endpoint health on webhook_settings, a delivery log (the
// queue itself is graphile-worker's schema), alert contacts with their verification codes, and alert rules.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("webhook_settings")
    // AES-256-GCM ciphertext of the whsec_ secret (the user id is bound in), never the secret itself.
    .addColumn("secret_ciphertext", "text")
    .addColumn("failure_streak", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failing_since", "timestamptz")
    .addColumn("disabled_reason", "text")
    .addColumn("disabled_at", "timestamptz")
    .execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey()) // the webhook-id, msg_…, stable across retries
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("event_type", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status in ('pending', 'retrying', 'delivered', 'failed', 'cancelled')`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("response_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("next_attempt_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("webhook_deliveries_user_created").on("webhook_deliveries").columns(["user_id", "created_at desc"]).execute();

  await db.schema
    .createTable("alert_contacts")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("channel", "text", (c) => c.notNull().check(sql`channel in ('email', 'sms')`))
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("verified_at", "timestamptz")
    // SHA-256 of the one-time code; a database dump reveals no usable code.
    .addColumn("code_hash", "text")
    .addColumn("code_expires_at", "timestamptz")
    .addColumn("code_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("code_sent_at", "timestamptz")
    .addPrimaryKeyConstraint("alert_contacts_pk", ["user_id", "channel"])
    .execute();

  await db.schema
    .createTable("alert_rules")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('detection', 'people_count')`))
    .addColumn("object", "text")
    .addColumn("threshold", "integer")
    .addColumn("email", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("sms", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("cooldown_seconds", "integer", (c) => c.notNull().defaultTo(300))
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("last_fired_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("alert_rules_user").on("alert_rules").column("user_id").execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
