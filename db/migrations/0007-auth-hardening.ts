// The sign-in failure counter becomes a general attempt counter (sign-in per address, per account and per
// pair; sign-ups per address), and the one-time token that makes the first administrator from afar.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sign_in_failures rename to attempt_counters`.execute(db);
  await sql`alter table attempt_counters rename column failures to attempts`.execute(db);
  await sql`alter index sign_in_failures_pkey rename to attempt_counters_pkey`.execute(db);

  // At most one row (id is always true): the setup token, AES-256-GCM-encrypted with ENCRYPTION_KEY so every
  // app process can print the same one; deleted as soon as an administrator exists.
  await db.schema
    .createTable("admin_setup_token")
    .addColumn("id", "boolean", (c) =>
      c
        .primaryKey()
        .defaultTo(true)
        .check(sql`id`),
    )
    .addColumn("token_ciphertext", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
