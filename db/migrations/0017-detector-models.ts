// Bring your own detector (issue 29): ONNX object detectors an administrator uploads for the whole deployment. The
// model's bytes live in the blob store (blob_key); the row keeps what the upload check read off it. At most one is
// the studios' detector at a time (`active`, enforced by a unique partial index); none active means the built-in one.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("detector_models")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("name", "text", (c) => c.notNull().check(sql`char_length(name) between 1 and 80`))
    .addColumn("format", "text", (c) => c.notNull().check(sql`format in ('yolo', 'detr')`))
    .addColumn("pixel_scaling", "text", (c) => c.notNull().check(sql`pixel_scaling in ('unit', 'imagenet')`))
    .addColumn("labels", "jsonb", (c) => c.notNull()) // the class names, in class-id order
    .addColumn("input_width", "integer", (c) => c.notNull())
    .addColumn("input_height", "integer", (c) => c.notNull())
    .addColumn("byte_size", "integer", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("blob_key", "text", (c) => c.notNull().unique())
    .addColumn("uploaded_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The deployment's one active model: a second `active` row is refused by the database itself.
  await sql`create unique index detector_models_one_active on detector_models ((true)) where active`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
