// SQL for local vision's zones, lines and per-minute counts, always scoped to the owner.
import { sql, type Insertable, type Updateable } from "kysely";
import type { DB } from "#db/index";
import type { FollowSettingRow, PipelineStatsRow, VisionCountKind, VisionLinesTable, VisionZonesTable } from "#db/schema";

export type RegionTable = "vision_zones" | "vision_lines";
type RegionValues<T extends RegionTable> = T extends "vision_zones" ? VisionZonesTable : VisionLinesTable;

export const listRegions = <T extends RegionTable>(db: DB, table: T, userId: string, cameraId: string) =>
  db
    .selectFrom(table as RegionTable)
    .selectAll()
    .where("user_id", "=", userId)
    .where("camera_id", "=", cameraId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();

export async function countRegions(db: DB, table: RegionTable, userId: string, cameraId: string): Promise<number> {
  const { count } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("user_id", "=", userId)
    .where("camera_id", "=", cameraId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export const insertRegion = <T extends RegionTable>(db: DB, table: T, values: Insertable<RegionValues<T>>) =>
  db
    .insertInto(table as RegionTable)
    .values(values as Insertable<VisionZonesTable>)
    .returningAll()
    .executeTakeFirstOrThrow();

export const updateRegion = <T extends RegionTable>(db: DB, table: T, userId: string, id: string, values: Updateable<RegionValues<T>>) =>
  db
    .updateTable(table as RegionTable)
    .set(values as Updateable<VisionZonesTable>)
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();

export const deleteRegion = (db: DB, table: RegionTable, userId: string, id: string) =>
  db.deleteFrom(table).where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();

export const findRegion = (db: DB, table: RegionTable, userId: string, id: string) =>
  db.selectFrom(table).select(["id", "camera_id"]).where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();

/** A line's or zone's counts, with their rollups and dwell histogram (Insights): its reset starts them all from nothing. */
export async function deleteCounts(trx: DB, userId: string, target: { lineId: string } | { zoneId: string }): Promise<void> {
  for (const table of ["vision_counts", "vision_count_hours", "vision_count_days"] as const) {
    const query = trx.deleteFrom(table).where("user_id", "=", userId);
    await ("lineId" in target ? query.where("line_id", "=", target.lineId) : query.where("zone_id", "=", target.zoneId)).execute();
  }
  if ("zoneId" in target)
    for (const table of ["vision_dwell_hours", "vision_dwell_days"] as const)
      await trx.deleteFrom(table).where("user_id", "=", userId).where("zone_id", "=", target.zoneId).execute();
}

export interface CountIncrement {
  lineId: string | null;
  zoneId: string | null;
  minute: Date;
  label: string;
  kind: VisionCountKind;
  count: number;
}

/** Adds a batch's counts in one statement: a minute's row is created or its count raised. */
export async function addCounts(db: DB, userId: string, cameraId: string, increments: CountIncrement[]): Promise<void> {
  if (increments.length === 0) return;
  const rows = increments.map(
    (i) => sql`(${userId}::uuid, ${cameraId}::uuid, ${i.lineId}::uuid, ${i.zoneId}::uuid, ${i.minute}::timestamptz, ${i.label}, ${i.kind}, ${i.count}::integer)`,
  );
  await sql`
    insert into vision_counts (user_id, camera_id, line_id, zone_id, minute, label, kind, count)
    values ${sql.join(rows)}
    on conflict (camera_id, coalesce(line_id, zone_id), minute, label, kind) do update set count = vision_counts.count + excluded.count
  `.execute(db);
}

export interface DwellIncrement {
  zoneId: string;
  hour: Date;
  label: string;
  bucket: number;
  count: number;
}

/** Adds exits to the zones' dwell histograms, by UTC hour and by UTC day (a long report reads days), in one statement. */
export async function addDwell(db: DB, userId: string, cameraId: string, increments: DwellIncrement[]): Promise<void> {
  if (increments.length === 0) return;
  const rows = increments.map((i) => sql`(${userId}::uuid, ${cameraId}::uuid, ${i.zoneId}::uuid, ${i.hour}::timestamptz, ${i.label}, ${i.bucket}::integer, ${i.count}::integer)`);
  await sql`
    with exits (user_id, camera_id, zone_id, hour, label, bucket, count) as (values ${sql.join(rows)}),
    hours as (
      insert into vision_dwell_hours (user_id, camera_id, zone_id, hour, label, bucket, count)
      select * from exits
      on conflict (zone_id, hour, label, bucket) do update set count = vision_dwell_hours.count + excluded.count
    )
    insert into vision_dwell_days (user_id, camera_id, zone_id, day, label, bucket, count)
    select user_id, camera_id, zone_id, (hour at time zone 'UTC')::date, label, bucket, sum(count) from exits group by 1, 2, 3, 4, 5, 6
    on conflict (zone_id, day, label, bucket) do update set count = vision_dwell_days.count + excluded.count
  `.execute(db);
}

export const readCounts = (db: DB, userId: string, cameraId: string, range: { from: Date; to: Date; lineId?: string; zoneId?: string }) => {
  let query = db
    .selectFrom("vision_counts")
    .select(["minute", "line_id", "zone_id", "label", "kind", "count"])
    .where("user_id", "=", userId)
    .where("camera_id", "=", cameraId)
    .where("minute", ">=", range.from)
    .where("minute", "<", range.to);
  if (range.lineId) query = query.where("line_id", "=", range.lineId);
  if (range.zoneId) query = query.where("zone_id", "=", range.zoneId);
  return query.orderBy("minute").orderBy("line_id").orderBy("zone_id").orderBy("label").orderBy("kind").execute();
};

/** Takes a batch id for the user: false when it was taken before (the batch is a resend). */
export async function claimBatch(db: DB, userId: string, batchId: string): Promise<boolean> {
  const row = await db
    .insertInto("vision_event_batches")
    .values({ user_id: userId, id: batchId.toLowerCase() })
    .onConflict((oc) => oc.columns(["user_id", "id"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Forgets batch ids older than a day (a resend comes within the studio's 60 s backoff cap, long before). */
export async function forgetOldBatches(db: DB): Promise<void> {
  await db
    .deleteFrom("vision_event_batches")
    .where("received_at", "<", sql<Date>`now() - interval '1 day'`)
    .execute();
}

// "Watch with local vision" (camera_watches): the per-camera setting and the running pipeline's figures.

export const findWatch = (db: DB, userId: string, cameraId: string) =>
  db.selectFrom("camera_watches").selectAll().where("user_id", "=", userId).where("camera_id", "=", cameraId).executeTakeFirst();

export const upsertWatch = (db: DB, values: { camera_id: string; user_id: string; enabled: boolean; labels: string[]; fps: number; width: number; follow?: FollowSettingRow }) =>
  db
    .insertInto("camera_watches")
    .values(values)
    .onConflict((oc) =>
      oc.column("camera_id").doUpdateSet({
        enabled: values.enabled,
        labels: values.labels,
        fps: values.fps,
        width: values.width,
        // A changed pipeline setting restarts the camera's pipeline (supervisor.ts); the follow alone does not.
        updated_at: sql`case when (camera_watches.enabled, camera_watches.labels, camera_watches.fps, camera_watches.width)
          is distinct from (excluded.enabled, excluded.labels, excluded.fps, excluded.width) then now() else camera_watches.updated_at end`,
        // Switched off: the figures of the pipeline that ran are no longer true.
        ...(values.enabled ? {} : { stats: null, stats_at: null }),
        // A follow set (switched on again from the studio) is no longer paused by the last manual move.
        ...(values.follow ? { follow: values.follow, follow_paused_at: null } : {}),
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();

/** A manual PTZ command paused the camera's follow: the row when it was following (and is paused now), else none. */
export const pauseFollow = (db: DB, userId: string, cameraId: string) =>
  db
    .updateTable("camera_watches")
    .set({ follow_paused_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("camera_id", "=", cameraId)
    .where(sql<boolean>`(follow->>'enabled')::boolean`)
    .where("follow_paused_at", "is", null)
    .returning("camera_id")
    .executeTakeFirst();

/** Every watched IP camera, with its owner and settings: what the processes share out among themselves. */
export const listEnabledWatches = (db: DB) =>
  db
    .selectFrom("camera_watches as w")
    .innerJoin("cameras as c", "c.id", "w.camera_id")
    .select(["w.camera_id", "w.user_id", "w.labels", "w.fps", "w.width", "w.updated_at", "w.follow", "w.follow_paused_at", "c.name", "c.ptz_protocol"])
    .where("w.enabled", "=", true)
    .where("c.source", "=", "ip")
    .execute();

export const writeWatchStats = (db: DB, cameraId: string, stats: PipelineStatsRow) =>
  db
    .updateTable("camera_watches")
    .set({ stats, stats_at: sql`now()` })
    .where("camera_id", "=", cameraId)
    .where("enabled", "=", true)
    .execute();

export const markWatchEvent = (db: DB, cameraId: string, at: Date) => db.updateTable("camera_watches").set({ last_event_at: at }).where("camera_id", "=", cameraId).execute();

/** The figures of every watched camera, for /metrics (the deployment's, not a user's: the metrics token guards it). */
export const listWatchStats = (db: DB) =>
  db
    .selectFrom("camera_watches as w")
    .innerJoin("cameras as c", "c.id", "w.camera_id")
    .select(["w.camera_id", "c.name", "w.stats", "w.stats_at", "w.last_event_at"])
    .where("w.enabled", "=", true)
    .orderBy("w.camera_id")
    .execute();
