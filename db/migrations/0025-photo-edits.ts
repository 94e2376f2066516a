// Photo edits (issue 32): a cut-out, a background blur or a smart crop is saved as a new photo that names its
// source (kept when the source is deleted: the link is cleared) and what was done to it.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("photos")
    .addColumn("source_photo_id", "uuid", (c) => c.references("photos.id").onDelete("set null"))
    .addColumn("edit_kind", "text", (c) => c.check(sql`edit_kind in ('cutout', 'blur', 'crop')`))
    .execute();
  await db.schema
    .alterTable("photos")
    .addCheckConstraint("photos_edit_has_kind", sql`source_photo_id is null or edit_kind is not null`)
    .execute();
  // Deleting a photo clears its edits' links: without an index that is a scan of every photo.
  await db.schema.createIndex("photos_source_photo_id_idx").on("photos").column("source_photo_id").where("source_photo_id", "is not", null).execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
