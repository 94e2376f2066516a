// The timeline's SQL: its tables (timeline_events, timeline_words, timeline_settings) are written only here.
import { sql, type Insertable, type RawBuilder, type Selectable } from "kysely";
import type { TimelineType } from "#app/schemas/timeline";
import type { DB } from "#db/index";
import type { TimelineEventsTable } from "#db/schema";

export type NewTimelineEvent = Insertable<TimelineEventsTable>;
export type TimelineRow = Omit<Selectable<TimelineEventsTable>, "search" | "user_id"> & { headline?: string | null };

/** Marks ts_headline puts around a matching word: control characters no stored text contains. */
export const MATCH_START = "\u0001";
export const MATCH_END = "\u0002";

/** The words an event can be found by, for the typo correction's vocabulary: lower case, 3–30 letters or digits. */
function wordsOf(row: NewTimelineEvent): string[] {
  const text = [row.label, row.target_name, row.camera_name, row.description].filter(Boolean).join(" ").toLowerCase();
  return text.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 3 && word.length <= 30);
}

/**
 * Records events in one multi-row insert (on the caller's transaction, when it has one), and adds their words to their
 * users' vocabularies (sorted: two batches adding the same words never wait on each other in opposite orders).
 */
export async function insertEvents(db: DB, rows: readonly NewTimelineEvent[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto("timeline_events")
    .values([...rows])
    .execute();
  const words = new Set<string>();
  for (const row of rows) for (const word of wordsOf(row)) words.add(`${row.user_id} ${word}`);
  if (words.size === 0) return;
  const pairs = [...words].sort().map((pair) => pair.split(" ") as [string, string]);
  await sql`
    insert into timeline_words (user_id, word)
    select * from unnest(${pairs.map(([user]) => user)}::uuid[], ${pairs.map(([, word]) => word)}::text[])
    on conflict do nothing`.execute(db);
}

/** For each term, the term itself when the user's events have it, else the nearest such word by trigrams (pg_trgm's `%`), else null. */
export async function correctTerms(db: DB, userId: string, terms: readonly string[]): Promise<(string | null)[]> {
  if (terms.length === 0) return [];
  const { rows } = await sql<{ word: string | null }>`
    select coalesce(
      (select w.word from timeline_words w where w.user_id = ${userId} and w.word = t.term),
      (select w.word from timeline_words w where w.user_id = ${userId} and w.word % t.term order by w.word <-> t.term, w.word limit 1)
    ) as word
    from unnest(${[...terms]}::text[]) with ordinality as t(term, n)
    order by t.n`.execute(db);
  return rows.map((row) => row.word);
}

export interface EventFilter {
  cameraIds?: readonly string[];
  types?: readonly TimelineType[];
  label?: string;
  from?: Date;
  to?: Date;
  /** websearch_to_tsquery text. */
  q?: string;
  /** Rows strictly older than this (occurred_at, id): the previous page's last. */
  after?: { at: Date; id: string };
}

/**
 * A search first looks among the newest this-many rows the other filters allow (walking the newest-first index): a
 * common word fills its page there at once, where the GIN index would hand over every match to be sorted. Only a page
 * that does not fill there is asked of the GIN index, which is quick exactly when matches are few.
 */
export const SEARCH_WALK = 2_000;

/** One page of the user's events, newest first (keyset on occurred_at, id); with `q`, each with its headline. */
export async function listEvents(db: DB, userId: string, filter: EventFilter, limit: number): Promise<TimelineRow[]> {
  if (filter.q) {
    const walked = (await eventsPage(userId, filter, limit, SEARCH_WALK).execute(db)).rows;
    if (walked.length >= limit) return walked;
  }
  return (await eventsPage(userId, filter, limit).execute(db)).rows;
}

const COLUMNS = sql`id, type, camera_id, camera_name, label, target_name, photo_id, description, detail, occurred_at`;

/**
 * The SQL of listEvents (the benchmark runs it bare, as its baseline). With `walk`, the search is applied to the newest
 * `walk` rows of the other filters only: a full page from it is the right page, a short one says nothing.
 */
export function eventsPage(userId: string, filter: EventFilter, limit: number, walk?: number): RawBuilder<TimelineRow> {
  const conditions = [sql`user_id = ${userId}`];
  // One camera or type is an equality: the planner then walks that camera's (or type's) own newest-first index.
  if (filter.cameraIds?.length === 1) conditions.push(sql`camera_id = ${filter.cameraIds[0]}::uuid`);
  else if (filter.cameraIds?.length) conditions.push(sql`camera_id = any(${[...filter.cameraIds]}::uuid[])`);
  if (filter.types?.length === 1) conditions.push(sql`type = ${filter.types[0]}`);
  else if (filter.types?.length) conditions.push(sql`type = any(${[...filter.types]}::text[])`);
  if (filter.label) conditions.push(sql`lower(label) = lower(${filter.label})`);
  if (filter.from) conditions.push(sql`occurred_at >= ${filter.from}`);
  if (filter.to) conditions.push(sql`occurred_at < ${filter.to}`);
  if (filter.after) conditions.push(sql`(occurred_at, id) < (${filter.after.at}, ${filter.after.id}::uuid)`);
  const matches = filter.q ? sql`search @@ websearch_to_tsquery('english', ${filter.q})` : null;
  const where = sql.join(walk === undefined && matches ? [...conditions, matches] : conditions, sql` and `);
  const page =
    walk !== undefined && matches
      ? sql`select ${COLUMNS} from (
          select ${COLUMNS}, search from timeline_events where ${where} order by occurred_at desc, id desc limit ${walk}
        ) candidates where ${matches} order by occurred_at desc, id desc limit ${limit}`
      : sql`select ${COLUMNS} from timeline_events where ${where} order by occurred_at desc, id desc limit ${limit}`;
  if (!filter.q) return sql<TimelineRow>`${page}`;
  // The headline only for the page's rows (ts_headline reads the whole text: never for rows the limit drops).
  return sql<TimelineRow>`
    select p.*, ts_headline('english', coalesce(p.description, concat_ws(' · ', p.label, p.target_name, p.camera_name)),
      websearch_to_tsquery('english', ${filter.q}),
      ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, HighlightAll=true`}) as headline
    from (${page}) p
    order by p.occurred_at desc, p.id desc`;
}

export interface DayMark {
  camera_id: string | null;
  camera_name: string | null;
  type: TimelineType;
  bucket: Date;
  count: number;
  event_id: string;
  event_at: Date;
}

/** The day `date` in `timeZone` as [from, to). */
export async function dayRange(db: DB, date: string, timeZone: string): Promise<{ from: Date; to: Date }> {
  const { rows } = await sql<{ from: Date; to: Date }>`
    select (${date}::date::timestamp at time zone ${timeZone}) as "from", ((${date}::date + 1)::timestamp at time zone ${timeZone}) as "to"`.execute(db);
  return rows[0]!;
}

/** The user's events in [from, to) per camera, type and bucket of `bucketMinutes`, with each bucket's latest event. */
export async function dayMarks(db: DB, userId: string, range: { from: Date; to: Date }, bucketMinutes: number): Promise<DayMark[]> {
  const { rows } = await sql<DayMark>`
    select camera_id, max(camera_name) as camera_name, type,
      date_bin(make_interval(mins => ${bucketMinutes}), occurred_at, ${range.from}::timestamptz) as bucket,
      count(*)::int as count,
      (array_agg(id order by occurred_at desc, id desc))[1] as event_id, max(occurred_at) as event_at
    from timeline_events
    where user_id = ${userId} and occurred_at >= ${range.from} and occurred_at < ${range.to}
    group by camera_id, case when camera_id is null then camera_name end, type, bucket
    order by max(camera_name) nulls last, camera_id, bucket`.execute(db);
  return rows;
}

export async function findRetention(db: DB, userId: string): Promise<number | null> {
  const row = await db.selectFrom("timeline_settings").select("retention_days").where("user_id", "=", userId).executeTakeFirst();
  return row?.retention_days ?? null;
}

export async function saveRetention(db: DB, userId: string, days: number): Promise<void> {
  await db
    .insertInto("timeline_settings")
    .values({ user_id: userId, retention_days: days })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ retention_days: days }))
    .execute();
}

/**
 * Deletes events older than their user's retention (`defaultDays` for users who never set one), at most `batch` rows a
 * statement, oldest first per user along timeline_events_newest, until none is left; returns how many went.
 */
export async function deleteOldEvents(db: DB, defaultDays: number, batch = 10_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result = await sql`
      delete from timeline_events where ctid = any(array(
        select old.ctid from users u
        left join timeline_settings s on s.user_id = u.id
        cross join lateral (
          select e.ctid from timeline_events e
          where e.user_id = u.id and e.occurred_at < now() - make_interval(days => coalesce(s.retention_days, ${defaultDays}))
          order by e.occurred_at limit ${batch}
        ) old
        limit ${batch}
      ))`.execute(db);
    const count = Number(result.numAffectedRows ?? 0);
    deleted += count;
    if (count < batch) return deleted;
  }
}
