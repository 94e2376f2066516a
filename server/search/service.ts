// Library search: words (typos read as their nearest indexed spelling), facets with counts, ranked pages with the
// matching words highlighted, stable cursors. Owner-scoped: every query names the user.
import type { HighlightSegment, PhotoSearchQuery, PhotoSearchResult, SearchFilters } from "#app/schemas/search";
import type { DB } from "#db/index";
import { ProblemError } from "../errors";
import { toPhoto } from "../photos/service";
import * as q from "./queries";

/** Words of a websearch query that name something: not OR, not shorter than 3 letters. */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words as searched: each word (3+ letters, not OR) the owner's vocabulary lacks is replaced by its nearest
 * spelling there, when there is one close enough; quotes, minus signs and OR stay where they were.
 */
export async function correctWords(db: DB, userId: string, words: string): Promise<{ words: string; lexemes: boolean; corrections: { from: string; to: string }[] }> {
  const candidates = [...new Set([...words.matchAll(WORD)].map((m) => m[0].toLowerCase()).filter((w) => w.length >= 3 && w !== "or"))];
  const { lexemes, found } = await q.nearestWords(db, userId, words, candidates);
  const replace = new Map(found.filter((w) => !w.known && w.nearest && w.nearest !== w.word).map((w) => [w.word, w.nearest!]));
  if (replace.size === 0) return { words, lexemes, corrections: [] };
  const corrected = words.replace(WORD, (word) => replace.get(word.toLowerCase()) ?? word);
  // A correction only swaps a word for an indexed one: the query still holds lexemes if it did.
  return { words: corrected, lexemes: lexemes || replace.size > 0, corrections: [...replace].map(([from, to]) => ({ from, to })) };
}

/** Where the next page starts, the first page's moment, and its total (later pages count nothing again). */
interface Cursor {
  asOf: string;
  total: number;
  after: q.After;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.asOf, cursor.total, cursor.after.rank, cursor.after.createdAt, cursor.after.id])).toString("base64url");
}

function decodeCursor(text: string): Cursor {
  try {
    const [asOf, total, rank, createdAt, id] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown[];
    // PostgreSQL's own timestamptz text (microseconds kept: a JavaScript Date would round them off).
    const validTime = (value: unknown): value is string => typeof value === "string" && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.test(value);
    const count = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
    if (validTime(asOf) && count(total) && typeof rank === "number" && Number.isFinite(rank) && validTime(createdAt) && typeof id === "string" && /^[0-9a-f-]{36}$/.test(id)) {
      return { asOf, total, after: { rank, createdAt, id } };
    }
  } catch {
    // Not base64url JSON: refused below.
  }
  throw new ProblemError(400, "cursor is not valid", { errors: { cursor: ["not a cursor this API returned"] } });
}

/** ts_headline's text cut at its marks into plain segments; the browser renders them as text, never as HTML. */
export function highlightSegments(headline: string): HighlightSegment[] {
  const segments: HighlightSegment[] = [];
  for (const [index, part] of headline.split(q.MARK_START).entries()) {
    const [marked, rest] = index === 0 ? [null, part] : splitOnce(part, q.MARK_STOP);
    if (marked) segments.push({ text: marked, match: true });
    if (rest) segments.push({ text: rest.replaceAll(q.MARK_STOP, ""), match: false });
  }
  return segments;
}

function splitOnce(text: string, mark: string): [string, string] {
  const at = text.indexOf(mark);
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + mark.length)];
}

/** The words as SQL takes them: corrected, or null when they hold nothing to search for ("the", "-"). */
async function resolveWords(db: DB, userId: string, words: string | undefined) {
  if (!words?.trim()) return { words: null, corrections: [] };
  const corrected = await correctWords(db, userId, words);
  return corrected.lexemes ? corrected : { words: null, corrections: [] };
}

const filtersOf = ({ q: _words, limit: _limit, cursor: _cursor, ...filters }: PhotoSearchQuery): SearchFilters => filters;

const withoutTotal = ({ total: _total, ...counts }: q.FacetRows) => counts;

export async function searchPhotos(db: DB, userId: string, query: PhotoSearchQuery): Promise<PhotoSearchResult> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  const { words, corrections } = await resolveWords(db, userId, query.q);
  // The first page is bounded by its own statement's clock (returned with its rows); later pages by the first's.
  const search: q.SearchSql = { userId, words, filters: filtersOf(query), asOf: cursor?.asOf ?? null };
  // Facets and the total belong to the first page; later pages are bounded by its moment, so they would not change.
  const [rows, facets] = await Promise.all([q.searchPage(db, search, query.limit + 1, cursor?.after ?? null), cursor ? null : q.facetCounts(db, search)]);
  const asOf = cursor?.asOf ?? rows[0]?.as_of ?? "";
  const total = cursor?.total ?? facets?.total ?? 0;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => ({ photo: toPhoto(row), rank: row.rank, highlight: highlightSegments(row.headline ?? "") })),
    total,
    nextCursor: rows.length > query.limit && last ? encodeCursor({ asOf, total, after: { rank: last.rank, createdAt: last.created_text, id: last.id } }) : null,
    facets: facets ? withoutTotal(facets) : null,
    corrections,
  };
}
