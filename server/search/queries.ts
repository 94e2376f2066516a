// SQL for library search, always scoped to the owner. Photos carry a trigger-maintained `search` tsvector (labels A,
// captions B, names C), `labels` and `people_count` (db/migrations/0024-search.ts); the words go through
// websearch_to_tsquery('english', …), so phrases, -exclusions and OR work as on a web search engine.
import { sql, type RawBuilder } from "kysely";
import type { SearchFilters } from "#app/schemas/search";
import type { DB } from "#db/index";
import type { DetectionBoxRow } from "#db/schema";
import { photoColumns } from "../photos/queries";

/** The facets, by the filter each one narrows on. */
export type FacetName = "label" | "camera" | "mode" | "auto" | "story" | "date" | "people";

/** A search as SQL takes it: the (corrected) words, the facets, and the first page's moment. */
export interface SearchSql {
  userId: string;
  /** Words for websearch_to_tsquery; null: no words (every photo matches, newest first). */
  words: string | null;
  filters: SearchFilters;
  /** Only photos saved by then (the first page's time), so later pages do not mix in newer photos. */
  asOf: string | null;
}

const tsquery = (words: string) => sql`websearch_to_tsquery('english', ${words})`;

/** A day means its start for `from` and its end for `to`. */
const bound = (value: string, end: boolean) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) ? sql`(${value}::date + ${end ? sql`interval '1 day'` : sql`interval '0'`})::timestamptz` : sql`${value}::timestamptz`;

/** The facet filters as conditions on a photos row (unqualified columns), leaving out `except`'s own. */
export function facetConditions(filters: SearchFilters, except?: FacetName): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [];
  if (filters.label && except !== "label") where.push(sql`labels @> array[${filters.label}]::text[]`);
  if (filters.cameraId && except !== "camera") where.push(sql`camera_id = ${filters.cameraId}`);
  if (filters.captureMode && except !== "mode") where.push(sql`capture_mode = ${filters.captureMode}`);
  if (filters.autoCapture !== undefined && except !== "auto") where.push(sql`auto_capture = ${filters.autoCapture}`);
  if (filters.storyId && except !== "story") where.push(sql`story_id = ${filters.storyId}`);
  if (filters.from && except !== "date") where.push(sql`created_at >= ${bound(filters.from, false)}`);
  if (filters.to && except !== "date") where.push(sql`created_at ${/^\d{4}-\d{2}-\d{2}$/.test(filters.to) ? sql`<` : sql`<=`} ${bound(filters.to, true)}`);
  if (filters.minPeople && except !== "people") where.push(sql`people_count >= ${filters.minPeople}`);
  return where;
}

const and = (conditions: RawBuilder<unknown>[]) => (conditions.length ? sql.join(conditions, sql` and `) : sql`true`);

/** The owner, the words and the moment: what every facet shares. */
function baseConditions(search: SearchSql): RawBuilder<unknown>[] {
  const where = [sql`user_id = ${search.userId}`];
  if (search.words) where.push(sql`search @@ ${tsquery(search.words)}`);
  if (search.asOf) where.push(sql`created_at <= ${search.asOf}::timestamptz`);
  return where;
}

/** Whether the words hold any lexeme ("the", "-" hold none: they are no text condition at all). */
export async function hasLexemes(db: DB, words: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select numnode(${tsquery(words)}) as n`.execute(db);
  return (rows[0]?.n ?? 0) > 0;
}

/** For each word: whether the owner's vocabulary has it, and else its nearest spelling there (trigram similarity ≥ 0.3). */
export async function nearestWords(db: DB, userId: string, words: string[]) {
  if (words.length === 0) return [];
  const { rows } = await sql<{ word: string; known: boolean; nearest: string | null }>`
    select w as word,
      exists (select 1 from search_words where user_id = ${userId} and word = w) as known,
      (select word from search_words where user_id = ${userId} and word % w order by similarity(word, w) desc, word limit 1) as nearest
    from unnest(${sql.val(words)}::text[]) w`.execute(db);
  return rows;
}

/** Cursor position: after this (rank, created_at, id), newest first within a rank. */
export interface After {
  rank: number;
  createdAt: string;
  id: string;
}

/** Start and stop marks of ts_headline: control characters no caption holds (intake drops them), split apart in the service. */
export const MARK_START = "\u0001";
export const MARK_STOP = "\u0002";

export interface PageRow {
  id: string;
  camera_id: string | null;
  camera_name: string | null;
  story_id: string | null;
  capture_mode: "single" | "burst" | "timelapse";
  auto_capture: boolean;
  detection_query: string | null;
  detection_boxes: DetectionBoxRow[] | null;
  description: string | null;
  video_width: number | null;
  video_height: number | null;
  frame_rate: number | null;
  width: number;
  height: number;
  bytes: number;
  created_at: Date;
  created_text: string;
  rank: number;
  headline: string;
}

/** One page: best rank first, then newest; with each photo's rank and its highlighted caption text. */
export async function searchPage(db: DB, search: SearchSql, limit: number, after: After | null) {
  const where = [...baseConditions(search), ...facetConditions(search.filters)];
  const rank = search.words ? sql`ts_rank_cd(search, ${tsquery(search.words)})` : sql`0::real`;
  if (after) where.push(sql`(${rank}, created_at, id) < (${after.rank}::real, ${after.createdAt}::timestamptz, ${after.id}::uuid)`);
  const columns = sql.raw(photoColumns.map((c) => c.replace("photos.", "p.")).join(", "));
  const text = sql`concat_ws(' ', p.description, (select string_agg(caption, ' ' order by captured_at) from story_captions where photo_id = p.id))`;
  const headline = search.words
    ? sql`ts_headline('english', ${text}, ${tsquery(search.words)}, ${`StartSel=${MARK_START}, StopSel=${MARK_STOP}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`})`
    : text;
  // The page is chosen first (inner query), so ts_headline runs on its rows only.
  const { rows } = await sql<PageRow>`
    select ${columns}, p.created_at::text as created_text, p.rank, ${headline} as headline
    from (
      select *, ${rank} as rank from photos where ${and(where)}
      order by rank desc, created_at desc, id desc
      limit ${limit}
    ) p
    order by p.rank desc, p.created_at desc, p.id desc`.execute(db);
  return rows;
}

/** The first page's moment: the database's clock, which stamps created_at. */
export async function databaseNow(db: DB): Promise<string> {
  const { rows } = await sql<{ now: string }>`select now()::text as now`.execute(db);
  return rows[0]!.now;
}

export interface FacetRows {
  total: number;
  labels: { value: string; count: number }[];
  cameras: { id: string; name: string | null; count: number }[];
  captureModes: { value: "single" | "burst" | "timelapse"; count: number }[];
  autoCapture: { value: boolean; count: number }[];
  stories: { id: string; title: string; count: number }[];
  months: { value: string; count: number }[];
  people: { min: number; count: number }[];
}

/** The "people ≥ N" choices counted. */
export const PEOPLE_STEPS = [1, 2, 3, 5, 10];
const FACET_LIMIT = 20;

/**
 * The total and every facet's counts in one statement over the matches of the words (materialised once); each facet
 * applies every filter but its own.
 */
export async function facetCounts(db: DB, search: SearchSql): Promise<FacetRows> {
  const f = search.filters;
  const all = and(facetConditions(f));
  const but = (facet: FacetName) => and(facetConditions(f, facet));
  const { rows } = await sql<{ facets: FacetRows }>`
    with m as materialized (
      select id, camera_id, camera_name, story_id, capture_mode, auto_capture, created_at, people_count, labels
      from photos where ${and(baseConditions(search))}
    )
    select json_build_object(
      'total', (select count(*) from m where ${all}),
      'labels', (select coalesce(json_agg(x), '[]') from (
        select l as value, count(*)::int as count from m, unnest(m.labels) l where ${but("label")}
        group by l order by count(*) desc, l limit ${FACET_LIMIT}) x),
      'cameras', (select coalesce(json_agg(x), '[]') from (
        select camera_id as id, max(camera_name) as name, count(*)::int as count from m where camera_id is not null and ${but("camera")}
        group by camera_id order by count(*) desc, max(camera_name) limit ${FACET_LIMIT}) x),
      'captureModes', (select coalesce(json_agg(x), '[]') from (
        select capture_mode as value, count(*)::int as count from m where ${but("mode")} group by capture_mode order by count(*) desc, capture_mode) x),
      'autoCapture', (select coalesce(json_agg(x), '[]') from (
        select auto_capture as value, count(*)::int as count from m where ${but("auto")} group by auto_capture order by auto_capture desc) x),
      'stories', (select coalesce(json_agg(x), '[]') from (
        select s.id, s.title, count(*)::int as count from (select story_id from m where ${but("story")}) f
        join stories s on s.id = f.story_id and s.user_id = ${search.userId}
        group by s.id, s.title order by count(*) desc, s.title limit ${FACET_LIMIT}) x),
      'months', (select coalesce(json_agg(x order by x.value desc), '[]') from (
        select to_char(created_at at time zone 'UTC', 'YYYY-MM') as value, count(*)::int as count from m where ${but("date")}
        group by 1 order by 1 desc limit 24) x),
      'people', (select coalesce(json_agg(x order by x.min), '[]') from (
        select n as min, (select count(*)::int from m where people_count >= n and ${but("people")}) as count
        from unnest(${sql.val(PEOPLE_STEPS)}::int[]) n) x)
    ) as facets`.execute(db);
  return rows[0]!.facets;
}
