// The timeline's rules: a page of the user's events (filters, full-text search with typo correction, a keyset cursor),
// a day's marks per camera for the strip, and how long events are kept.
import {
  DAY_BUCKET_MINUTES,
  DEFAULT_TIMELINE_RETENTION_DAYS,
  type TimelineDay,
  type TimelineEvent,
  type TimelinePage,
  type TimelineQuery,
  type TimelineSettings,
} from "#app/schemas/timeline";
import { localDate } from "#app/lib/local-dates";
import type { DB } from "#db/index";
import { ProblemError } from "../errors";
import * as q from "./queries";

/** A page's cursor: its last event's time (ms) and id, opaque to clients. */
function encodeCursor(row: { occurred_at: Date; id: string }): string {
  return Buffer.from(`${row.occurred_at.getTime()}:${row.id}`).toString("base64url");
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const match = /^(\d{1,15}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) throw new ProblemError(400, "This page link is not valid; start again from the first page", { errors: { cursor: ["not a cursor this API gave"] } });
  return { at: new Date(Number(match[1])), id: match[2]! };
}

/** The text a search result shows, cut at ts_headline's marks into plain and matching stretches. */
function highlightOf(headline: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  for (const [index, piece] of headline.split(q.MATCH_START).entries()) {
    if (index === 0) {
      if (piece) parts.push({ text: piece, match: false });
      continue;
    }
    const [matched, rest] = piece.split(q.MATCH_END) as [string, string | undefined];
    if (matched) parts.push({ text: matched, match: true });
    if (rest) parts.push({ text: rest, match: false });
  }
  return parts;
}

/**
 * The search with each misspelt word replaced by the nearest word of the user's events (pg_trgm), so the search itself
 * stays an indexed tsvector match. Phrases ("…") keep their quotes, `-exclusions` and `or` are left as they are.
 */
async function correctSearch(db: DB, userId: string, search: string): Promise<string> {
  const tokens = search.match(/-?"[^"]*"?|\S+/g) ?? [];
  const words: string[] = [];
  const isWord = (text: string) => /^[\p{L}\p{N}]{3,30}$/u.test(text);
  for (const token of tokens) {
    if (token.startsWith("-") || token.toLowerCase() === "or") continue;
    for (const part of token.replace(/"/g, "").split(/[^\p{L}\p{N}]+/u)) if (isWord(part)) words.push(part.toLowerCase());
  }
  const unique = [...new Set(words)];
  const corrected = new Map<string, string>();
  (await q.correctTerms(db, userId, unique)).forEach((word, index) => {
    if (word && word !== unique[index]) corrected.set(unique[index]!, word);
  });
  if (corrected.size === 0) return search;
  return tokens
    .map((token) => (token.startsWith("-") || token.toLowerCase() === "or" ? token : token.replace(/[\p{L}\p{N}]+/gu, (part) => corrected.get(part.toLowerCase()) ?? part)))
    .join(" ");
}

function toEvent(row: q.TimelineRow, withHighlight: boolean): TimelineEvent {
  return {
    id: row.id,
    type: row.type,
    cameraId: row.camera_id,
    cameraName: row.camera_name,
    label: row.label,
    targetName: row.target_name,
    photoId: row.photo_id,
    thumbnailUrl: row.photo_id ? `/api/photos/${row.photo_id}/thumbnail` : null,
    imageUrl: row.photo_id ? `/api/photos/${row.photo_id}/image` : null,
    description: row.description,
    detail: row.detail,
    occurredAt: row.occurred_at.toISOString(),
    highlight: withHighlight && row.headline ? highlightOf(row.headline) : null,
  };
}

export async function listEvents(db: DB, userId: string, query: TimelineQuery): Promise<TimelinePage> {
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from >= to) throw new ProblemError(400, "from must be before to", { errors: { from: ["must be before to"] } });
  const search = query.q && /[\p{L}\p{N}]/u.test(query.q) ? await correctSearch(db, userId, query.q) : undefined;
  const rows = await q.listEvents(
    db,
    userId,
    {
      cameraIds: query.cameraId?.map((id) => id.toLowerCase()),
      types: query.type,
      label: query.label,
      from,
      to,
      q: search,
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
    },
    query.limit + 1,
  );
  const page = rows.slice(0, query.limit);
  return {
    events: page.map((row) => toEvent(row, Boolean(search))),
    nextCursor: rows.length > query.limit ? encodeCursor(page.at(-1)!) : null,
    searchedFor: search ?? null,
  };
}

/** The day `date` (today when not given) in `timeZone`: its marks per camera. */
export async function readDay(db: DB, userId: string, timeZone: string, date = localDate(new Date(), timeZone)): Promise<TimelineDay> {
  const range = await q.dayRange(db, date, timeZone);
  const marks = await q.dayMarks(db, userId, range, DAY_BUCKET_MINUTES);
  const cameras = new Map<string, TimelineDay["cameras"][number]>();
  for (const mark of marks) {
    const key = mark.camera_id ?? `name:${mark.camera_name ?? ""}`;
    let camera = cameras.get(key);
    if (!camera) cameras.set(key, (camera = { cameraId: mark.camera_id, cameraName: mark.camera_name, marks: [] }));
    camera.marks.push({ at: mark.bucket.toISOString(), type: mark.type, count: mark.count, eventId: mark.event_id, eventAt: mark.event_at.toISOString() });
  }
  return { date, timeZone, from: range.from.toISOString(), to: range.to.toISOString(), bucketMinutes: DAY_BUCKET_MINUTES, cameras: [...cameras.values()] };
}

export async function getSettings(db: DB, userId: string): Promise<TimelineSettings> {
  return { retentionDays: (await q.findRetention(db, userId)) ?? DEFAULT_TIMELINE_RETENTION_DAYS };
}

export async function saveSettings(db: DB, userId: string, settings: TimelineSettings): Promise<TimelineSettings> {
  await q.saveRetention(db, userId, settings.retentionDays);
  return settings;
}

/** The chore (server/chores.ts): events past their user's retention go, in bounded batches. */
export const deleteOldEvents = (db: DB) => q.deleteOldEvents(db, DEFAULT_TIMELINE_RETENTION_DAYS);
