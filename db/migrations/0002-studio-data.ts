// Everything the studio saves: cameras, presets, photos, stories and captions, people-count sessions and
// snapshots, LUTs. Image bytes live in the blob store; rows keep their keys.
import { sql, type Kysely } from "kysely";

const id = "uuid" as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("cameras")
    .addColumn("id", id, (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", id, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("offline"))
    .addColumn("device_id", "text")
    .addColumn("image_key", "text")
    .addColumn("image_mime_type", "text")
    .addColumn("thumbnail_key", "text")
    .addColumn("thumbnail_etag", "text")
    .addColumn("video_width", "integer")
    .addColumn("video_height", "integer")
    .addColumn("frame_rate", "real")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("cameras_user_idx").on("cameras").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("presets")
    .addColumn("id", id, (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", id, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("camera_id", id, (c) => c.notNull().references("cameras.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("number", "integer")
    .addColumn("position", "jsonb")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("presets_camera_idx").on("presets").columns(["user_id", "camera_id"]).execute();
  await sql`create unique index presets_camera_number_key on presets (camera_id, number) where number is not null`.execute(db);

  await db.schema
    .createTable("stories")
    .addColumn("id", id, (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", id, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("camera_id", id, (c) => c.references("cameras.id").onDelete("set null"))
    .addColumn("camera_name", "text")
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("featured_photo_id", id)
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .execute();
  await db.schema.createIndex("stories_user_idx").on("stories").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("photos")
    .addColumn("id", id, (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", id, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("camera_id", id, (c) => c.references("cameras.id").onDelete("set null"))
    .addColumn("camera_name", "text")
    .addColumn("story_id", id, (c) => c.references("stories.id").onDelete("set null"))
    .addColumn("capture_mode", "text", (c) => c.notNull().check(sql`capture_mode in ('single', 'burst', 'timelapse')`))
    .addColumn("auto_capture", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("detection_query", "text")
    .addColumn("detection_boxes", "jsonb")
    .addColumn("video_width", "integer")
    .addColumn("video_height", "integer")
    .addColumn("frame_rate", "real")
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("mime_type", "text", (c) => c.notNull())
    .addColumn("image_key", "text", (c) => c.notNull())
    .addColumn("thumbnail_key", "text", (c) => c.notNull())
    .addColumn("etag", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index photos_user_created_idx on photos (user_id, created_at desc, id desc)`.execute(db);
  await sql`create index photos_story_idx on photos (story_id, created_at) where story_id is not null`.execute(db);
  await sql`create index photos_camera_idx on photos (user_id, camera_id, created_at desc)`.execute(db);
  await sql`alter table stories add constraint stories_featured_photo_fk foreign key (featured_photo_id) references photos (id) on delete set null`.execute(db);

  await db.schema
    .createTable("story_captions")
    .addColumn("id", id, (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("story_id", id, (c) => c.notNull().references("stories.id").onDelete("cascade"))
    .addColumn("caption", "text", (c) => c.notNull())
    .addColumn("photo_id", id, (c) => c.references("photos.id").onDelete("set null"))
    .addColumn("captured_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("story_captions_story_idx").on("story_captions").columns(["story_id", "captured_at"]).execute();

  await db.schema
    .createTable("count_sessions")
    .addColumn("id", id, (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", id, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("camera_id", id, (c) => c.references("cameras.id").onDelete("set null"))
    .addColumn("camera_name", "text")
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("featured_snapshot_id", id)
    .addColumn("average_count", "double precision")
    .addColumn("min_count", "integer")
    .addColumn("max_count", "integer")
    .addColumn("snapshot_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .execute();
  await db.schema.createIndex("count_sessions_user_idx").on("count_sessions").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("count_snapshots")
    .addColumn("id", id, (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("session_id", id, (c) => c.notNull().references("count_sessions.id").onDelete("cascade"))
    .addColumn("user_id", id, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("image_key", "text", (c) => c.notNull())
    .addColumn("thumbnail_key", "text", (c) => c.notNull())
    .addColumn("etag", "text", (c) => c.notNull())
    .addColumn("mime_type", "text", (c) => c.notNull())
    .addColumn("ai_count", "integer", (c) => c.notNull())
    .addColumn("ai_count_min", "integer")
    .addColumn("ai_count_max", "integer")
    .addColumn("corrected_count", "integer")
    .addColumn("corrected_count_min", "integer")
    .addColumn("corrected_count_max", "integer")
    .addColumn("captured_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("count_snapshots_session_idx").on("count_snapshots").columns(["session_id", "captured_at"]).execute();
  await sql`alter table count_sessions add constraint count_sessions_featured_fk foreign key (featured_snapshot_id) references count_snapshots (id) on delete set null`.execute(db);

  await db.schema
    .createTable("luts")
    .addColumn("id", id, (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", id, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("lut_data", "text", (c) => c.notNull())
    .addColumn("builtin", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("luts_user_idx").on("luts").columns(["user_id", "created_at"]).execute();
  await sql`create unique index luts_builtin_key on luts (user_id, name) where builtin`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
