// The events timeline (issue 32): one row per thing that happened to a user's cameras (a line crossed, a zone entered,
// an auto-capture, a monitor's result or error, an alert sent or failed, a webhook given up on), kept for the user's
// retention setting. Searched by a generated, weighted tsvector (class A, description B, names and the type's words C)
// and read newest first by keyset on (occurred_at, id); timeline_words is the vocabulary a misspelt search word is
// corrected against (pg_trgm), so search itself stays on the GIN index.
import { sql, type Kysely } from "kysely";

const TIMELINE_TYPES = [
  "line.crossed",
  "zone.entered",
  "zone.exited",
  "zone.loitering",
  "photo.auto_captured",
  "monitor.result",
  "monitor.error",
  "alert.sent",
  "alert.failed",
  "webhook.failed",
] as const;

/** The words a type is found by ("line crossed", "auto-capture", "monitor error"): part of the C weight. */
const TYPE_WORDS = sql.raw(`case type
  when 'line.crossed' then 'line crossed crossing'
  when 'zone.entered' then 'zone entered entering'
  when 'zone.exited' then 'zone exited exit left'
  when 'zone.loitering' then 'zone loitering loiter'
  when 'photo.auto_captured' then 'auto-capture auto capture captured photo'
  when 'monitor.result' then 'monitor result'
  when 'monitor.error' then 'monitor error failed'
  when 'alert.sent' then 'alert sent'
  when 'alert.failed' then 'alert failed error'
  when 'webhook.failed' then 'webhook failed error'
  else '' end`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  // btree_gin: the camera and type in the search's GIN index beside the words, so a filtered search reads only its own
  // matches from the table (the owner is left out: their posting list is nearly the whole table, and costly to intersect).
  await sql`create extension if not exists btree_gin`.execute(db);
  await db.schema
    .createTable("timeline_events")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("camera_id", "uuid", (c) => c.references("cameras.id").onDelete("set null"))
    // Kept when the camera is deleted: the event still says where it happened.
    .addColumn("camera_name", "text")
    .addColumn("type", "text", (c) => c.notNull().check(sql`type in (${sql.join(TIMELINE_TYPES.map((type) => sql.lit(type)))})`))
    .addColumn("label", "text")
    .addColumn("target_name", "text")
    .addColumn("photo_id", "uuid", (c) => c.references("photos.id").onDelete("set null"))
    .addColumn("description", "text")
    .addColumn("detail", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // Milliseconds, as JavaScript holds them: a cursor made from a row's time finds that row again.
    .addColumn("occurred_at", sql`timestamptz(3)`, (c) => c.notNull())
    .addColumn("search", sql`tsvector`, (c) =>
      c
        .notNull()
        .generatedAlwaysAs(
          sql`
        setweight(to_tsvector('english'::regconfig, coalesce(label, '')), 'A') ||
        setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'B') ||
        setweight(to_tsvector('english'::regconfig, coalesce(camera_name, '') || ' ' || coalesce(target_name, '') || ' ' || ${TYPE_WORDS}), 'C')`,
        )
        .stored(),
    )
    .execute();
  // The newest page, and the filters' own orders (a camera's id is one user's: the camera index needs no user_id).
  await sql`create index timeline_events_newest on timeline_events (user_id, occurred_at desc, id desc)`.execute(db);
  await sql`create index timeline_events_camera on timeline_events (camera_id, occurred_at desc, id desc)`.execute(db);
  await sql`create index timeline_events_type on timeline_events (user_id, type, occurred_at desc, id desc)`.execute(db);
  await sql`create index timeline_events_search on timeline_events using gin (camera_id, type, search)`.execute(db);
  // A deleted photo sets its events' photo_id to null: found by this index, not by reading every event.
  await sql`create index timeline_events_photo on timeline_events (photo_id) where photo_id is not null`.execute(db);

  await db.schema
    .createTable("timeline_words")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("word", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("timeline_words_pkey", ["user_id", "word"])
    .execute();
  await sql`create index timeline_words_trgm on timeline_words using gin (word gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable("timeline_settings")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("retention_days", "integer", (c) =>
      c
        .notNull()
        .defaultTo(90)
        .check(sql`retention_days between 1 and 3650`),
    )
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
