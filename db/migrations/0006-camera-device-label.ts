// A webcam's device label, kept beside its device id: ids differ in every browser, so on another device
// or browser the studio finds the same camera again by its label.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("cameras").addColumn("device_label", "text").execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
