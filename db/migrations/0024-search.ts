// Library search (issue 32): a weighted tsvector on every photo, kept right by triggers, so every code path that
// writes a photo, a story caption or a story title keeps search true without knowing about it:
// - A, labels: the detection query and the detection boxes' labels (local-detector classes included);
// - B, captions: the photo's description (Moondream's) and the story captions that name the photo;
// - C, names: the camera's name, the story's title, the capture mode and feature words ("auto-capture").
// Beside it: `labels` (the label facet) and `people_count` (person boxes, the "people ≥ N" facet), and a per-user
// vocabulary of indexed words with a trigram index, which expands a query word that matches nothing to its nearest
// spellings (typos). Saved searches, and the (saved search, photo) pairs that fired, so each photo fires a saved
// search at most once whichever process saves it.
import { sql, type Kysely } from "kysely";

/** The words counted as a person by the "people ≥ N" facet (a box's label, or the detection's query for an unlabelled box). */
const PERSON_WORDS = ["person", "people", "persons", "pedestrian", "human", "man", "woman", "men", "women", "child", "children", "kid", "kids"];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`alter table photos
    add column search tsvector not null default ''::tsvector,
    add column labels text[] not null default '{}',
    add column people_count integer not null default 0`.execute(db);

  await db.schema
    .createTable("search_words")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("word", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("search_words_pkey", ["user_id", "word"])
    .execute();
  await sql`create index search_words_trgm on search_words using gin (word gin_trgm_ops)`.execute(db);

  // The three weighted texts of one photo; a story's captions and title are read at the time of the write.
  await sql`
    create function photo_search_texts(p_id uuid, p_story_id uuid, p_camera_name text, p_capture_mode text, p_auto boolean,
      p_query text, p_boxes jsonb, p_description text, out labels text, out captions text, out names text)
    language sql stable as $$
      select
        concat_ws(' ', p_query, (select string_agg(b->>'label', ' ') from jsonb_array_elements(case when jsonb_typeof(p_boxes) = 'array' then p_boxes else '[]' end) b)),
        concat_ws(' ', p_description, (select string_agg(caption, ' ' order by captured_at) from story_captions where photo_id = p_id)),
        concat_ws(' ', p_camera_name, (select title from stories where id = p_story_id), p_capture_mode,
          case when p_auto then 'auto-capture auto-captured' end)
    $$`.execute(db);

  // Before a photo is written: its tsvector, labels and people count; its words join the owner's vocabulary (in
  // sorted order, so parallel saves take the vocabulary's row locks in one order and never deadlock).
  await sql`
    create function photos_search_refresh() returns trigger language plpgsql as $$
    declare
      t record;
    begin
      select * into t from photo_search_texts(new.id, new.story_id, new.camera_name, new.capture_mode, new.auto_capture,
        new.detection_query, new.detection_boxes, new.description);
      new.search := setweight(to_tsvector('english', t.labels), 'A')
        || setweight(to_tsvector('english', t.captions), 'B')
        || setweight(to_tsvector('english', t.names), 'C');
      new.labels := coalesce((
        select array_agg(distinct l order by l) from (
          select lower(trim(b->>'label')) as l from jsonb_array_elements(case when jsonb_typeof(new.detection_boxes) = 'array' then new.detection_boxes else '[]' end) b
          union select lower(trim(new.detection_query))
        ) labels where l is not null and l <> ''), '{}');
      new.people_count := (
        select count(*) from jsonb_array_elements(case when jsonb_typeof(new.detection_boxes) = 'array' then new.detection_boxes else '[]' end) b
        where lower(trim(coalesce(b->>'label', new.detection_query, ''))) = any (array[${sql.raw(PERSON_WORDS.map((w) => `'${w}'`).join(", "))}]));
      insert into search_words (user_id, word)
        select new.user_id, w from unnest(tsvector_to_array(to_tsvector('simple', concat_ws(' ', t.labels, t.captions, t.names)))) w
        where length(w) between 3 and 40 and w !~ '^[0-9]+$' order by w
        on conflict do nothing;
      return new;
    end $$`.execute(db);
  await sql`create trigger photos_search before insert or update of story_id, camera_name, capture_mode, auto_capture, detection_query,
    detection_boxes, description, search on photos for each row execute function photos_search_refresh()`.execute(db);

  // A story caption added, changed or removed, or a story renamed: the photos it names are written again (touching
  // `search` runs the trigger above).
  await sql`
    create function story_captions_search_refresh() returns trigger language plpgsql as $$
    begin
      update photos set search = ''::tsvector where id in (
        select (case when tg_op = 'DELETE' then null else new.photo_id end) union select (case when tg_op = 'INSERT' then null else old.photo_id end));
      return null;
    end $$`.execute(db);
  await sql`create trigger story_captions_search after insert or update or delete on story_captions
    for each row execute function story_captions_search_refresh()`.execute(db);
  await sql`
    create function stories_search_refresh() returns trigger language plpgsql as $$
    begin
      update photos set search = ''::tsvector where story_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger stories_search after update of title on stories
    for each row when (old.title is distinct from new.title) execute function stories_search_refresh()`.execute(db);

  // Backfill: every existing photo through the trigger.
  await sql`update photos set search = ''::tsvector`.execute(db);
  await sql`create index photos_search_idx on photos using gin (search)`.execute(db);

  await db.schema
    .createTable("saved_searches")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("query", "jsonb", (c) => c.notNull())
    .addColumn("notify_webhook", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("notify_email", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("notify_sms", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("saved_searches_user").on("saved_searches").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("saved_search_hits")
    .addColumn("saved_search_id", "uuid", (c) => c.notNull().references("saved_searches.id").onDelete("cascade"))
    .addColumn("photo_id", "uuid", (c) => c.notNull().references("photos.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("saved_search_hits_pkey", ["saved_search_id", "photo_id"])
    .execute();
  await db.schema.createIndex("saved_search_hits_photo").on("saved_search_hits").column("photo_id").execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
