// Accounts, sessions, sign-in throttling, feature requests and per-user webhook settings.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("username", "text", (c) => c.notNull())
    .addColumn("username_key", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) =>
      c
        .notNull()
        .defaultTo("user")
        .check(sql`role in ('user', 'admin')`),
    )
    .addColumn("moondream_key_ciphertext", "text")
    .addColumn("shared_key_calls_used", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`shared_key_calls_used >= 0`),
    )
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("users_created_at_idx").on("users").columns(["created_at", "id"]).execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull())
    .addColumn("user_agent", "text")
    .addColumn("ip", "text")
    .execute();
  await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expires_at_idx").on("sessions").column("expires_at").execute();

  await db.schema
    .createTable("sign_in_failures")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("window_started_at", "timestamptz", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("feature_requests")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("feature_requests_created_at_idx").on("feature_requests").columns(["created_at", "id"]).execute();

  await db.schema
    .createTable("webhook_settings")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("webhook_url", "text")
    .addColumn("webhook_enabled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("webhook_event_type", "text", (c) =>
      c
        .notNull()
        .defaultTo("simple")
        .check(sql`webhook_event_type in ('simple', 'detailed')`),
    )
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
