// SQL for library search, always scoped to the owner. Photos carry a trigger-maintained `search` tsvector (labels A,
// captions B, names C), `labels` and `people_count` (db/migrations/0024-search.ts); the words go through
// websearch_to_tsquery('english', …), so phrases, -exclusions and OR work as on a web search engine.
import { sql, type RawBuilder } from "kysely";
import type { SearchFilters } from "#app/schemas/search";
import type { DB } from "#db/index";
import type { DetectionBoxRow, PhotoEditKind } from "#db/schema";
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

/**
 * Whether the words hold any lexeme (stop words and lone signs hold none), and for each candidate word: whether the
 * owner's vocabulary has it, and else its nearest spelling there (trigram similarity ≥ 0.3). One round trip.
 */
export async function nearestWords(db: DB, userId: string, words: string, candidates: string[]) {
  const { rows } = await sql<{ lexemes: boolean; found: { word: string; known: boolean; nearest: string | null }[] | null }>`
    select numnode(${tsquery(words)}) > 0 as lexemes, (
      select json_agg(json_build_object('word', w, 'known', exists (select 1 from search_words where user_id = ${userId} and word = w),
        'nearest', (select word from search_words where user_id = ${userId} and word % w order by similarity(word, w) desc, word limit 1)))
      from unnest(${sql.val(candidates)}::text[]) w) as found`.execute(db);
  return { lexemes: rows[0]?.lexemes ?? false, found: rows[0]?.found ?? [] };
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
  source_photo_id: string | null;
  edit_kind: PhotoEditKind | null;
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
  /** The statement's clock: the first page's moment, which bounds the next pages. */
  as_of: string;
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
    select ${columns}, p.created_at::text as created_text, p.rank, ${headline} as headline, now()::text as as_of
    from (
      select *, ${rank} as rank from photos where ${and(where)}
      order by rank desc, created_at desc, id desc
      limit ${limit}
    ) p
    order by p.rank desc, p.created_at desc, p.id desc`.execute(db);
  return rows;
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
 * The total and every facet's counts over the matches of the words, read once: one grouping-sets pass counts each
 * facet's values with every filter but its own (a FILTER per facet), and the labels are counted from the same rows.
 */
export async function facetCounts(db: DB, search: SearchSql): Promise<FacetRows> {
  const f = search.filters;
  const but = (facet: FacetName) => and(facetConditions(f, facet));
  const people = PEOPLE_STEPS.map((n) => sql`count(*) filter (where people_count >= ${sql.lit(n)} and ${but("people")})::int`);
  const { rows } = await sql<{ facet: string; key: string | null; name: string | null; count: number; people: number[] | null; total: number | null }>`
    with m as materialized (
      select camera_id, camera_name, story_id, capture_mode, auto_capture, created_at, date_trunc('month', created_at, 'UTC') as month, people_count, labels
      from photos where ${and(baseConditions(search))}
    ), g as (
      select
        case
          when grouping(camera_id) = 0 then 'camera' when grouping(capture_mode) = 0 then 'mode'
          when grouping(auto_capture) = 0 then 'auto' when grouping(story_id) = 0 then 'story'
          when grouping(month) = 0 then 'month' else 'all'
        end as facet,
        coalesce(camera_id::text, capture_mode, auto_capture::text, story_id::text, to_char(month at time zone 'UTC', 'YYYY-MM')) as key,
        max(camera_name) as name,
        case
          when grouping(camera_id) = 0 then count(*) filter (where ${but("camera")})
          when grouping(capture_mode) = 0 then count(*) filter (where ${but("mode")})
          when grouping(auto_capture) = 0 then count(*) filter (where ${but("auto")})
          when grouping(story_id) = 0 then count(*) filter (where ${but("story")})
          when grouping(month) = 0 then count(*) filter (where ${but("date")})
          else count(*) filter (where ${and(facetConditions(f))})
        end::int as count,
        case when grouping(camera_id, capture_mode, auto_capture, story_id, month) = 31
          then array[${sql.join(people)}] end as people
      from m
      group by grouping sets ((camera_id), (capture_mode), (auto_capture), (story_id), (month), ())
    )
    -- Story titles after counting: a join on the few story groups, not on every match.
    select g.facet, g.key, case when g.facet = 'story' then s.title else g.name end as name, g.count, g.people, null::int as total
    from g left join stories s on g.facet = 'story' and s.id::text = g.key and s.user_id = ${search.userId}
    where g.count > 0 or g.facet = 'all'
    union all
    select 'label', l, null, count(*)::int, null, null from m, unnest(m.labels) l where ${but("label")} group by l`.execute(db);

  const of = (facet: string) => rows.filter((row) => row.facet === facet && row.key !== null && row.count > 0);
  const byCount = <T extends { count: number }>(list: T[], tie: (item: T) => string) =>
    list.sort((a, b) => b.count - a.count || tie(a).localeCompare(tie(b))).slice(0, FACET_LIMIT);
  const all = rows.find((row) => row.facet === "all");
  return {
    total: all?.count ?? 0,
    labels: byCount(
      of("label").map((row) => ({ value: row.key!, count: row.count })),
      (item) => item.value,
    ),
    cameras: byCount(
      of("camera").map((row) => ({ id: row.key!, name: row.name, count: row.count })),
      (item) => item.name ?? "",
    ),
    captureModes: byCount(
      of("mode").map((row) => ({ value: row.key as "single" | "burst" | "timelapse", count: row.count })),
      (item) => item.value,
    ),
    autoCapture: of("auto")
      .map((row) => ({ value: row.key === "true", count: row.count }))
      .sort((a, b) => Number(b.value) - Number(a.value)),
    stories: byCount(
      of("story").map((row) => ({ id: row.key!, title: row.name ?? "", count: row.count })),
      (item) => item.title,
    ),
    months: of("month")
      .map((row) => ({ value: row.key!, count: row.count }))
      .sort((a, b) => b.value.localeCompare(a.value))
      .slice(0, 24),
    people: PEOPLE_STEPS.map((min, index) => ({ min, count: all?.people?.[index] ?? 0 })),
  };
}
