// What a report covers: a site (its cameras, doors and zones, its time zone, day start and capacity) or the user's
// cameras, narrowed by the filter. Every id in the filter must be the user's own: another's is a 404, as if it did not
// exist, so a report never holds another user's rows (each query below is also scoped by user_id).
import type { ReportFilter } from "#app/schemas/insights";
import { DEFAULT_MINUTE_RETENTION_DAYS } from "#app/schemas/insights";
import type { DB } from "#db/index";
import { notFound } from "../errors";
import { sql } from "kysely";

export interface Scope {
  userId: string;
  /** The site the report is of, as it is (no narrower filter): its hours may be read whole (./site-hours.ts). */
  site: { id: string; hoursDoors: string | null } | null;
  title: string;
  timeZone: string;
  /** The hour (0–23) occupancy is reset each day. */
  dayStartsAt: number;
  capacity: number | null;
  cameras: { id: string; name: string }[];
  /** Cameras whose daily rollup is in the report's time zone: their days are read; the others' hours. */
  camerasInZone: string[];
  camerasOtherZone: string[];
  /** Doors whose drawn direction ("in") is an entry, and those drawn the other way. */
  doorsIn: string[];
  doorsOut: string[];
  lines: { id: string; name: string; cameraName: string }[];
  zones: { id: string; name: string; cameraName: string }[];
  labels: string[];
  minuteRetentionDays: number;
}

/** The time zone each camera's days are in. */
export async function cameraTimeZones(db: DB, cameraIds: readonly string[]): Promise<Map<string, string>> {
  if (cameraIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("cameras as c")
    .leftJoin("site_cameras as sc", "sc.camera_id", "c.id")
    .leftJoin("sites as s", "s.id", "sc.site_id")
    .leftJoin("insight_settings as st", "st.user_id", "c.user_id")
    .select(["c.id", sql<string>`coalesce(s.time_zone, st.time_zone, 'UTC')`.as("time_zone")])
    .where("c.id", "in", [...cameraIds])
    .execute();
  return new Map(rows.map((row) => [row.id, row.time_zone]));
}

export async function readSettings(db: DB, userId: string): Promise<{ timeZone: string; minuteRetentionDays: number; saved: boolean }> {
  const row = await db.selectFrom("insight_settings").select(["time_zone", "minute_retention_days"]).where("user_id", "=", userId).executeTakeFirst();
  return row
    ? { timeZone: row.time_zone, minuteRetentionDays: row.minute_retention_days, saved: true }
    : { timeZone: "UTC", minuteRetentionDays: DEFAULT_MINUTE_RETENTION_DAYS, saved: false };
}

function requireAll(given: readonly string[], found: ReadonlySet<string>, what: string): void {
  for (const id of given) if (!found.has(id.toLowerCase())) throw notFound(what);
}

export async function resolveScope(db: DB, userId: string, filter: ReportFilter & { timeZone?: string }): Promise<Scope> {
  const settings = await readSettings(db, userId);
  const site = filter.siteId ? await db.selectFrom("sites").selectAll().where("user_id", "=", userId).where("id", "=", filter.siteId.toLowerCase()).executeTakeFirst() : undefined;
  if (filter.siteId && !site) throw notFound("Site");

  const owned = await db.selectFrom("cameras").select(["id", "name"]).where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute();
  requireAll(filter.cameraIds, new Set(owned.map((camera) => camera.id)), "Camera");
  let cameras = owned;
  if (site) {
    const members = new Set((await db.selectFrom("site_cameras").select("camera_id").where("site_id", "=", site.id).execute()).map((row) => row.camera_id));
    cameras = cameras.filter((camera) => members.has(camera.id));
  }
  if (filter.cameraIds.length > 0) {
    const chosen = new Set(filter.cameraIds.map((id) => id.toLowerCase()));
    cameras = cameras.filter((camera) => chosen.has(camera.id));
  }
  const cameraIds = cameras.map((camera) => camera.id);
  const cameraNames = new Map(cameras.map((camera) => [camera.id, camera.name]));

  const [allLines, allZones] = await Promise.all(
    (["vision_lines", "vision_zones"] as const).map((table) =>
      db.selectFrom(table).select(["id", "name", "camera_id"]).where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute(),
    ),
  );
  requireAll(filter.lineIds, new Set(allLines!.map((line) => line.id)), "Line");
  requireAll(filter.zoneIds, new Set(allZones!.map((zone) => zone.id)), "Zone");
  const onCameras = <T extends { camera_id: string }>(rows: T[]) => rows.filter((row) => cameraNames.has(row.camera_id));

  const doors = new Map((site?.doors ?? []).map((door) => [door.lineId, door.entering]));
  let lines = onCameras(allLines!);
  if (filter.lineIds.length > 0) {
    const chosen = new Set(filter.lineIds.map((id) => id.toLowerCase()));
    lines = lines.filter((line) => chosen.has(line.id));
  } else if (doors.size > 0) {
    lines = lines.filter((line) => doors.has(line.id));
  }
  let zones = onCameras(allZones!);
  if (filter.zoneIds.length > 0) {
    const chosen = new Set(filter.zoneIds.map((id) => id.toLowerCase()));
    zones = zones.filter((zone) => chosen.has(zone.id));
  }

  const timeZone = filter.timeZone ?? site?.time_zone ?? settings.timeZone;
  const zonesOf = await cameraTimeZones(db, cameraIds);
  const narrowed = filter.cameraIds.length > 0 || filter.lineIds.length > 0 || filter.labels.length > 0;
  return {
    userId,
    site: site && !narrowed ? { id: site.id, hoursDoors: site.hours_doors } : null,
    title: site?.name ?? (cameras.length === 1 ? cameras[0]!.name : cameras.length === owned.length ? "All cameras" : cameras.map((camera) => camera.name).join(", ")),
    timeZone,
    dayStartsAt: site?.day_starts_at ?? 0,
    capacity: site?.capacity ?? null,
    cameras,
    camerasInZone: cameraIds.filter((id) => zonesOf.get(id) === timeZone),
    camerasOtherZone: cameraIds.filter((id) => zonesOf.get(id) !== timeZone),
    doorsIn: lines.filter((line) => doors.get(line.id) !== "out").map((line) => line.id),
    doorsOut: lines.filter((line) => doors.get(line.id) === "out").map((line) => line.id),
    lines: lines.map((line) => ({ id: line.id, name: line.name, cameraName: cameraNames.get(line.camera_id)! })),
    zones: zones.map((zone) => ({ id: zone.id, name: zone.name, cameraName: cameraNames.get(zone.camera_id)! })),
    labels: filter.labels,
    minuteRetentionDays: settings.minuteRetentionDays,
  };
}
