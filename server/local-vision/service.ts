// Local vision's rules on the server: zones and lines belong to one of the owner's cameras (at most 20 of each);
// the studio's tracker reports its events in batches, which are counted per minute and emitted as domain events
// (server/events.ts: the webhook outbox, alert rules) in one transaction (a failed batch leaves nothing half-written).
import type { Selectable } from "kysely";
import type { CountsQuery, Line, LineInput, VisionEvent, VisionHeat, Zone, ZoneInput } from "#app/schemas/local-vision";
import { MAX_COUNTS_DAYS, MAX_REGIONS_PER_CAMERA } from "#app/schemas/local-vision";
import type { DB } from "#db/index";
import type { VisionCountKind, VisionLinesTable, VisionZonesTable } from "#db/schema";
import { reserve, tryAgainIn } from "../accounts/throttle";
import { findCamera } from "../cameras/queries";
import { createWithinCap } from "../caps";
import { notFound, ProblemError } from "../errors";
import { emit, type DomainEvent } from "../events";
import { dwellBucket } from "../insights/dwell";
import { lockCamera } from "../insights/locks";
import { markDirtyHours } from "../insights/rollup";
import { refreshSiteHours } from "../insights/site-hours";
import { findPhotoIds } from "../photos/queries";
import { checkHeatHour, heatIncrement } from "./heat";
import { addHeat } from "./heat-queries";
import * as q from "./queries";
import { csvCell, slugOf } from "../csv";

/** Event batches per user per minute: a studio posts about one a second; several tabs or cameras fit. */
export const EVENT_BATCHES_PER_MINUTE = 240;
/** How far an event's time may lie from the server's clock: a batch held back by a lost connection still counts. */
const EVENT_PAST_MS = 24 * 3600_000;
const EVENT_FUTURE_MS = 5 * 60_000;

type Anchor = Zone["anchor"];

function toZone(row: Selectable<VisionZonesTable>): Zone {
  return {
    id: row.id,
    cameraId: row.camera_id,
    name: row.name,
    polygon: row.geometry,
    labels: row.labels,
    anchor: row.anchor as Anchor,
    inertia: row.frames,
    loiterSeconds: row.loiter_seconds ?? 0,
    capturePhoto: row.capture_photo,
    describePrompt: row.describe_prompt,
    createdAt: row.created_at.toISOString(),
  };
}

function toLine(row: Selectable<VisionLinesTable>): Line {
  return {
    id: row.id,
    cameraId: row.camera_id,
    name: row.name,
    a: row.geometry.a,
    b: row.geometry.b,
    labels: row.labels,
    anchor: row.anchor as Anchor,
    settleFrames: row.frames,
    capturePhoto: row.capture_photo,
    describePrompt: row.describe_prompt,
    createdAt: row.created_at.toISOString(),
  };
}

const zoneValues = (input: ZoneInput) => ({
  name: input.name,
  geometry: input.polygon.map(({ x, y }) => ({ x, y })),
  labels: input.labels,
  anchor: input.anchor,
  frames: input.inertia,
  loiter_seconds: input.loiterSeconds,
  capture_photo: input.capturePhoto,
  describe_prompt: input.describePrompt,
});

const lineValues = (input: LineInput) => ({
  name: input.name,
  geometry: { a: { x: input.a.x, y: input.a.y }, b: { x: input.b.x, y: input.b.y } },
  labels: input.labels,
  anchor: input.anchor,
  frames: input.settleFrames,
  loiter_seconds: null,
  capture_photo: input.capturePhoto,
  describe_prompt: input.describePrompt,
});

async function requireCamera(db: DB, userId: string, cameraId: string) {
  const camera = await findCamera(db, userId, cameraId);
  if (!camera) throw notFound("Camera");
  return camera;
}

/** Creates a zone or line (`insert`, on the transaction) on the owner's camera while it has room for one more of that kind. */
async function createRegion<R>(db: DB, table: q.RegionTable, userId: string, cameraId: string, insert: (trx: DB) => Promise<R>): Promise<R> {
  await requireCamera(db, userId, cameraId);
  const cap = {
    resource: table,
    owner: cameraId,
    max: MAX_REGIONS_PER_CAMERA,
    refusal: `A camera can have at most ${MAX_REGIONS_PER_CAMERA} ${table === "vision_zones" ? "zones" : "lines"}`,
    count: (trx: DB) => q.countRegions(trx, table, userId, cameraId),
  };
  return createWithinCap(db, cap, insert);
}

export async function listZones(db: DB, userId: string, cameraId: string): Promise<Zone[]> {
  await requireCamera(db, userId, cameraId);
  return (await q.listRegions(db, "vision_zones", userId, cameraId)).map((row) => toZone(row as Selectable<VisionZonesTable>));
}

export async function createZone(db: DB, userId: string, cameraId: string, input: ZoneInput): Promise<Zone> {
  const row = await createRegion(db, "vision_zones", userId, cameraId, (trx) =>
    q.insertRegion(trx, "vision_zones", { user_id: userId, camera_id: cameraId, ...zoneValues(input) }),
  );
  return toZone(row as Selectable<VisionZonesTable>);
}

export async function updateZone(db: DB, userId: string, id: string, input: ZoneInput): Promise<Zone> {
  const row = await q.updateRegion(db, "vision_zones", userId, id, zoneValues(input));
  if (!row) throw notFound("Zone");
  return toZone(row as Selectable<VisionZonesTable>);
}

export async function listLines(db: DB, userId: string, cameraId: string): Promise<Line[]> {
  await requireCamera(db, userId, cameraId);
  return (await q.listRegions(db, "vision_lines", userId, cameraId)).map((row) => toLine(row as Selectable<VisionLinesTable>));
}

export async function createLine(db: DB, userId: string, cameraId: string, input: LineInput): Promise<Line> {
  const row = await createRegion(db, "vision_lines", userId, cameraId, (trx) =>
    q.insertRegion(trx, "vision_lines", { user_id: userId, camera_id: cameraId, ...lineValues(input) }),
  );
  return toLine(row as Selectable<VisionLinesTable>);
}

export async function updateLine(db: DB, userId: string, id: string, input: LineInput): Promise<Line> {
  const row = await q.updateRegion(db, "vision_lines", userId, id, lineValues(input));
  if (!row) throw notFound("Line");
  return toLine(row as Selectable<VisionLinesTable>);
}

/** Deletes a zone or line; its counts go with it (the foreign key cascades). */
export async function deleteRegion(db: DB, userId: string, kind: "zone" | "line", id: string): Promise<void> {
  const table = kind === "zone" ? "vision_zones" : "vision_lines";
  const region = await q.findRegion(db, table, userId, id);
  if (!region) throw notFound(kind === "zone" ? "Zone" : "Line");
  await db.transaction().execute(async (trx) => {
    // The cascade deletes rollup rows: the camera's lock first, as every writer of them takes it (server/insights/locks.ts).
    await lockCamera(trx, region.camera_id);
    if (!(await q.deleteRegion(trx, table, userId, id))) throw notFound(kind === "zone" ? "Zone" : "Line");
  });
}

/** Starts a zone's or line's counts again from nothing. */
export async function resetCounts(db: DB, userId: string, kind: "zone" | "line", id: string): Promise<void> {
  const row = await q.findRegion(db, kind === "zone" ? "vision_zones" : "vision_lines", userId, id);
  if (!row) throw notFound(kind === "zone" ? "Zone" : "Line");
  await db.transaction().execute(async (trx) => {
    // The camera's rollups wait (or are waited for), as for any writer of its rollup rows (server/insights/locks.ts).
    await lockCamera(trx, row.camera_id);
    await q.deleteCounts(trx, userId, kind === "zone" ? { zoneId: id } : { lineId: id });
    // A door's counts are in its site's summed hours too.
    if (kind === "line") await refreshSiteHours(trx, [row.camera_id], null);
  });
}

const countKind = (event: VisionEvent): VisionCountKind =>
  event.type === "line.crossed" ? event.direction : event.type === "zone.entered" ? "entered" : event.type === "zone.exited" ? "exited" : "loitering";

const minuteOf = (at: number) => new Date(Math.floor(at / 60_000) * 60_000);

function checkTimes(events: readonly VisionEvent[]): void {
  const now = Date.now();
  const errors: Record<string, string[]> = {};
  events.forEach((event, index) => {
    if (event.at < now - EVENT_PAST_MS || event.at > now + EVENT_FUTURE_MS) errors[`events.${index}.at`] = ["must be within the last 24 hours"];
  });
  if (Object.keys(errors).length > 0) throw new ProblemError(400, "Some events are too old or in the future", { errors });
}

/** An event's photo must be one of the user's own: a link to it is signed with the owner's name on it. */
async function checkPhotos(db: DB, userId: string, events: readonly VisionEvent[]): Promise<void> {
  const ids = [...new Set(events.flatMap((event) => (event.photoId ? [event.photoId.toLowerCase()] : [])))];
  const found = new Set((await findPhotoIds(db, userId, ids)).map((row) => row.id));
  const errors: Record<string, string[]> = {};
  events.forEach((event, index) => {
    if (event.photoId && !found.has(event.photoId.toLowerCase())) errors[`events.${index}.photoId`] = ["No such photo"];
  });
  if (Object.keys(errors).length > 0) throw new ProblemError(400, "An event names a photo that is not yours", { errors });
}

/**
 * A batch of the studio's local-vision events on one camera: each is counted in its minute, sent to the webhook and
 * matched against the alert rules of its kind. Events for a line or zone not on this camera (deleted since the
 * studio loaded it) are left out and reported as ignored. A batch whose `batchId` was received before (the studio
 * sends a batch again when its answer is lost) changes nothing and answers `duplicate`.
 */
export async function recordEvents(
  db: DB,
  userId: string,
  cameraId: string,
  given: readonly VisionEvent[],
  batchId?: string,
  heat?: VisionHeat,
): Promise<{ accepted: number; ignored: number; duplicate: boolean }> {
  // Ids are stored in lower case; a UUID in capitals names the same line, zone or photo.
  const events = given.map(
    (event) =>
      ({
        ...event,
        ...("lineId" in event ? { lineId: event.lineId.toLowerCase() } : { zoneId: event.zoneId.toLowerCase() }),
        ...(event.photoId ? { photoId: event.photoId.toLowerCase() } : {}),
      }) as VisionEvent,
  );
  checkTimes(events);
  if (heat) checkHeatHour(heat);
  const limit = await reserve(db, [{ key: `vision-events:${userId}`, max: EVENT_BATCHES_PER_MINUTE, windowMinutes: 1 }]);
  if (!limit.allowed)
    throw new ProblemError(429, `Too many event batches. ${tryAgainIn(limit.retryAfterSeconds)}`, { headers: { "Retry-After": String(limit.retryAfterSeconds) } });
  const { id, name } = await requireCamera(db, userId, cameraId);
  await checkPhotos(db, userId, events);
  const saved = await saveEvents(db, userId, { id, name }, events, batchId, heat);
  if (!saved) return { accepted: 0, ignored: 0, duplicate: true };
  return saved;
}

/**
 * Events already checked, on the user's camera: counted in their minute, published to the webhooks and matched against
 * the alert rules in one transaction (the studio's batches, and the server's own pipeline, which needs no throttle:
 * its pace is its frame rate). Events naming a line or zone no longer on the camera are left out. Null: `batchId`
 * was recorded before.
 */
export async function saveEvents(
  db: DB,
  userId: string,
  camera: { id: string; name: string },
  events: readonly VisionEvent[],
  batchId?: string,
  heat?: VisionHeat,
): Promise<{ accepted: number; ignored: number; duplicate: false } | null> {
  const cameraId = camera.id;
  const [zones, lines] = await Promise.all([q.listRegions(db, "vision_zones", userId, cameraId), q.listRegions(db, "vision_lines", userId, cameraId)]);
  const zoneNames = new Map(zones.map((zone) => [zone.id, zone.name]));
  const lineNames = new Map(lines.map((line) => [line.id, line.name]));

  const known = events.flatMap((event) => {
    const name = "lineId" in event ? lineNames.get(event.lineId) : zoneNames.get(event.zoneId);
    return name === undefined ? [] : [{ event, name }];
  });
  const increments = new Map<string, q.CountIncrement>();
  for (const { event } of known) {
    const lineId = "lineId" in event ? event.lineId : null;
    const zoneId = "zoneId" in event ? event.zoneId : null;
    const minute = minuteOf(event.at);
    const kind = countKind(event);
    const key = `${lineId ?? zoneId} ${minute.getTime()} ${event.label} ${kind}`;
    const row = increments.get(key);
    if (row) row.count++;
    else increments.set(key, { lineId, zoneId, minute, label: event.label, kind, count: 1 });
  }

  const recorded = await db.transaction().execute(async (trx) => {
    // First, in the same transaction as the counts: two copies of one batch racing each other count once.
    if (batchId && !(await q.claimBatch(trx, userId, batchId))) return false;
    await q.addCounts(trx, userId, cameraId, [...increments.values()]);
    await q.addDwell(trx, userId, cameraId, dwellIncrements(known.map(({ event }) => event)));
    await markDirtyHours(
      trx,
      cameraId,
      [...increments.values()].map((increment) => increment.minute),
    );
    if (heat) await addHeat(trx, userId, cameraId, heatIncrement(heat));
    await emit(trx, ...known.map(({ event, name }) => ({ type: event.type, userId, camera, targetName: name, event }) as DomainEvent));
    return true;
  });
  if (!recorded) return null;
  return { accepted: known.length, ignored: events.length - known.length, duplicate: false };
}

/** Exits from a zone by time spent inside, per hour and bucket (app/schemas/insights.ts DWELL_BUCKETS): Insights' dwell histogram. */
function dwellIncrements(events: readonly VisionEvent[]): q.DwellIncrement[] {
  const increments = new Map<string, q.DwellIncrement>();
  for (const event of events) {
    if (event.type !== "zone.exited") continue;
    const hour = new Date(Math.floor(event.at / 3600_000) * 3600_000);
    const bucket = dwellBucket(event.dwellSeconds);
    const key = `${event.zoneId} ${hour.getTime()} ${event.label} ${bucket}`;
    const row = increments.get(key);
    if (row) row.count++;
    else increments.set(key, { zoneId: event.zoneId, hour, label: event.label, bucket, count: 1 });
  }
  return [...increments.values()];
}

/** The span a counts read covers: `to` defaults to now, `from` to a day before it; at most 31 days. */
function countsRange(query: CountsQuery): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : new Date();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - 24 * 3600_000);
  if (from >= to) throw new ProblemError(400, "from must be before to", { errors: { from: ["must be before to"] } });
  if (to.getTime() - from.getTime() > MAX_COUNTS_DAYS * 24 * 3600_000)
    throw new ProblemError(400, `Ask for at most ${MAX_COUNTS_DAYS} days at once`, { errors: { from: [`at most ${MAX_COUNTS_DAYS} days before to`] } });
  return { from, to };
}

export async function readCounts(db: DB, userId: string, cameraId: string, query: CountsQuery) {
  await requireCamera(db, userId, cameraId);
  const range = countsRange(query);
  const rows = await q.readCounts(db, userId, cameraId, { ...range, lineId: query.lineId?.toLowerCase(), zoneId: query.zoneId?.toLowerCase() });
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    rows: rows.map((row) => ({ minute: row.minute.toISOString(), lineId: row.line_id, zoneId: row.zone_id, label: row.label, kind: row.kind, count: row.count })),
  };
}

/** The counts as CSV with the lines' and zones' names, and a file name saying which camera and when. */
export async function countsCsv(db: DB, userId: string, cameraId: string, query: CountsQuery): Promise<{ filename: string; csv: string }> {
  const camera = await requireCamera(db, userId, cameraId);
  const counts = await readCounts(db, userId, cameraId, query);
  const [zones, lines] = await Promise.all([q.listRegions(db, "vision_zones", userId, cameraId), q.listRegions(db, "vision_lines", userId, cameraId)]);
  const names = new Map([...zones, ...lines].map((region) => [region.id, region.name]));
  const rows = ["minute,type,id,name,class,kind,count"];
  for (const row of counts.rows) {
    const id = row.lineId ?? row.zoneId!;
    rows.push([row.minute, row.lineId ? "line" : "zone", id, names.get(id) ?? "", row.label, row.kind, row.count].map(csvCell).join(","));
  }
  const slug = slugOf(camera.name, "camera");
  const day = (iso: string) => iso.slice(0, 16).replace(":", "");
  return { filename: `framewise-counts-${slug}-${day(counts.from)}-${day(counts.to)}.csv`, csv: `${rows.join("\r\n")}\r\n` };
}
