// The hourly and daily rollups of vision_counts, kept in PostgreSQL as counts arrive. An events batch marks the
// (camera, hour) pairs it touched in insight_rollup_queue, in its own transaction, and books the insights_rollup job;
// the job recomputes those hours, and the local days containing them, from the minutes. Recomputing (not adding) makes
// it idempotent: a job run twice, or two processes racing, write the same rows. Days are local dates in the camera's
// time zone (its site's, else the user's Insights setting, else UTC); a site's or setting's new time zone rebuilds its
// cameras' days from their hours (insights_rebuild_days), exact for every zone whose offset is whole hours.
import { sql } from "kysely";
import type { DB } from "#db/index";
import { enqueue, jobCall } from "../jobs/queue";
import { localDate } from "#app/lib/local-dates";
import { cameraTimeZones } from "./scope";
import { lockCamera } from "./locks";
import { refreshSiteHours } from "./site-hours";

/** Rows of the queue one job transaction takes: bounded, so a backlog (a day of cameras) is many short transactions. */
const BATCH = 200;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * In an events batch's transaction: the hours its minutes touched need their rollups recomputed soon. An hour already
 * queued is locked by the no-op update until this batch commits, so a rollup running meanwhile skips it (SKIP LOCKED)
 * instead of recomputing it without this batch's minutes; the job booked here runs after the commit and takes it.
 */
export async function markDirtyHours(trx: DB, cameraId: string, minutes: readonly Date[]): Promise<void> {
  // In time order, so two batches locking the same hours take them in the same order.
  const hours = [...new Set(minutes.map((minute) => Math.floor(minute.getTime() / HOUR_MS) * HOUR_MS))].sort((a, b) => a - b).map((ms) => new Date(ms).toISOString());
  if (hours.length === 0) return;
  // One round trip. One waiting job for everyone: batches arriving each second push nothing back (preserve_run_at), so
  // a rollup runs at most a couple of seconds after the first of them; one booked while the job runs is a new job.
  await sql`
    with marked as (
      insert into insight_rollup_queue (camera_id, hour) select ${cameraId}::uuid, h from unnest(${hours}::timestamptz[]) as h
      on conflict (camera_id, hour) do update set hour = excluded.hour
    )
    select ${jobCall("insights_rollup", {}, { key: "insights_rollup", runAt: new Date(Date.now() + 2000), mode: "preserve_run_at" })}`.execute(trx);
}

/** Recomputes one camera's hours (UTC hour starts) and the local days they fall on, from its minutes. */
async function recompute(trx: DB, cameraId: string, timeZone: string, hours: readonly Date[]): Promise<void> {
  await lockCamera(trx, cameraId);
  const hourTexts = hours.map((hour) => hour.toISOString());
  const first = new Date(Math.min(...hours.map((h) => h.getTime())));
  const last = new Date(Math.max(...hours.map((h) => h.getTime())) + HOUR_MS);
  await sql`delete from vision_count_hours where camera_id = ${cameraId}::uuid and hour = any(${hourTexts}::timestamptz[])`.execute(trx);
  await sql`
    insert into vision_count_hours (user_id, camera_id, line_id, zone_id, hour, label, kind, count)
    select user_id, camera_id, line_id, zone_id, date_trunc('hour', minute, 'UTC'), label, kind, sum(count)
    from vision_counts
    where camera_id = ${cameraId}::uuid and minute >= ${first} and minute < ${last}
      and date_trunc('hour', minute, 'UTC') = any(${hourTexts}::timestamptz[])
    group by 1, 2, 3, 4, 5, 6, 7`.execute(trx);

  // An hour can straddle two local dates in a zone whose offset is not whole hours: both are recomputed.
  const days = [...new Set(hours.flatMap((hour) => [localDate(hour, timeZone), localDate(new Date(hour.getTime() + HOUR_MS - 1), timeZone)]))];
  await sql`delete from vision_count_days where camera_id = ${cameraId}::uuid and day = any(${days}::date[])`.execute(trx);
  await sql`
    insert into vision_count_days (user_id, camera_id, line_id, zone_id, day, label, kind, count, time_zone)
    select user_id, camera_id, line_id, zone_id, (minute at time zone ${timeZone})::date, label, kind, sum(count), ${timeZone}
    from vision_counts
    where camera_id = ${cameraId}::uuid
      and minute >= ${new Date(first.getTime() - 2 * DAY_MS)} and minute < ${new Date(last.getTime() + 2 * DAY_MS)}
      and (minute at time zone ${timeZone})::date = any(${days}::date[])
    group by 1, 2, 3, 4, 5, 6, 7`.execute(trx);
}

/** Works through the queue until it is empty (the insights_rollup job). Returns how many (camera, hour) pairs it did. */
export async function runRollups(db: DB): Promise<number> {
  let done = 0;
  for (;;) {
    const taken = await db.transaction().execute(async (trx) => {
      // SKIP LOCKED: another process's job takes other rows meanwhile, and a pair a batch has marked but not yet
      // committed waits for that batch's own job. A batch marking a pair again while it is being recomputed waits for
      // this transaction's delete, then queues the pair anew: it is recomputed once more.
      const { rows } = await sql<{ camera_id: string; hour: Date }>`
        delete from insight_rollup_queue where (camera_id, hour) in (
          select camera_id, hour from insight_rollup_queue order by hour limit ${BATCH} for update skip locked
        ) returning camera_id, hour`.execute(trx);
      if (rows.length === 0) return 0;
      const byCamera = new Map<string, Date[]>();
      for (const row of rows) byCamera.set(row.camera_id, [...(byCamera.get(row.camera_id) ?? []), row.hour]);
      const zones = await cameraTimeZones(trx, [...byCamera.keys()]);
      for (const [cameraId, hours] of [...byCamera].sort(([a], [b]) => a.localeCompare(b))) {
        const timeZone = zones.get(cameraId);
        if (timeZone) await recompute(trx, cameraId, timeZone, hours); // a camera deleted meanwhile has no rows left
      }
      await refreshSiteHours(
        trx,
        [...byCamera.keys()],
        rows.map((row) => row.hour),
      );
      return rows.length;
    });
    if (taken === 0) return done;
    done += taken;
  }
}

/** Books the rebuild of these cameras' days (their time zone changed). */
export async function queueDayRebuilds(trx: DB, cameraIds: readonly string[]): Promise<void> {
  for (const cameraId of cameraIds) await enqueue(trx, "insights_rebuild_days", { cameraId });
}

/** The insights_rebuild_days job: a camera's days again, from its hours, in its time zone now. */
export async function rebuildDays(db: DB, cameraId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockCamera(trx, cameraId);
    const timeZone = (await cameraTimeZones(trx, [cameraId])).get(cameraId);
    await sql`delete from vision_count_days where camera_id = ${cameraId}::uuid`.execute(trx);
    if (!timeZone) return;
    await sql`
      insert into vision_count_days (user_id, camera_id, line_id, zone_id, day, label, kind, count, time_zone)
      select user_id, camera_id, line_id, zone_id, (hour at time zone ${timeZone})::date, label, kind, sum(count), ${timeZone}
      from vision_count_hours where camera_id = ${cameraId}::uuid
      group by 1, 2, 3, 4, 5, 6, 7`.execute(trx);
  });
}

/**
 * Deletes minutes older than each user's retention (the hourly chore), in slices so no long lock is held. Minutes of
 * an hour still waiting for its rollup stay until it is done.
 */
export async function deleteOldMinutes(db: DB, defaultDays: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result = await sql`
      delete from vision_counts where ctid = any(array(
        select c.ctid from vision_counts c
        left join insight_settings s on s.user_id = c.user_id
        where c.minute < now() - make_interval(days => coalesce(s.minute_retention_days, ${defaultDays}))
          and not exists (select 1 from insight_rollup_queue q where q.camera_id = c.camera_id and q.hour = date_trunc('hour', c.minute, 'UTC'))
        limit 20000
      ))`.execute(db);
    const count = Number(result.numAffectedRows ?? 0);
    deleted += count;
    if (count < 20000) return deleted;
  }
}
