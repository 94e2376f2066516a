// A site's entries and exits per UTC hour through its doors, kept as the rollups change (decision 0017): a site's
// report over a long period reads 24 rows a day instead of every door's hourly rollup (a year of 20 doors is 175,000).
// Which lines are doors, and which way each enters, can change at any time (the site edited, a line or camera
// deleted), so the rows carry the doors they were built for (sites.hours_doors): a report whose doors are not those
// reads the rollups, as it would without this table, and books a rebuild.
import { sql } from "kysely";
import type { DB } from "#db/index";
import { enqueueKeyed } from "../jobs/queue";
import { lockCamera, lockSite } from "./locks";
import { entriesExits, type HourDelta } from "./queries";
import { resolveScope, type Scope } from "./scope";

/** The doors a site's hours are for: each door line and the way it enters, in a stable order. */
export const doorsKey = (scope: Pick<Scope, "doorsIn" | "doorsOut">): string =>
  [...scope.doorsIn.map((id) => `${id}:in`), ...scope.doorsOut.map((id) => `${id}:out`)].sort().join(",");

/** The site's whole scope, or null when it is gone. */
async function siteScope(db: DB, siteId: string): Promise<Scope | null> {
  const site = await db.selectFrom("sites").select("user_id").where("id", "=", siteId).executeTakeFirst();
  return site ? resolveScope(db, site.user_id, { siteId, cameraIds: [], lineIds: [], zoneIds: [], labels: [] }) : null;
}

/** Writes the site's hours (these, or all of them) again from its doors' hourly rollup. */
async function writeHours(trx: DB, scope: Scope, siteId: string, hours: readonly string[] | null): Promise<void> {
  const only = hours ? sql`and hour = any(${hours}::timestamptz[])` : sql``;
  await sql`delete from site_hours where site_id = ${siteId}::uuid ${only}`.execute(trx);
  const doors = [...scope.doorsIn, ...scope.doorsOut];
  if (doors.length === 0) return;
  await sql`
    insert into site_hours (site_id, hour, entries, exits)
    select ${siteId}::uuid, hour, ${entriesExits(scope)} from vision_count_hours
    where user_id = ${scope.userId}::uuid and camera_id = any(${scope.cameras.map((camera) => camera.id)}::uuid[])
      and line_id = any(${doors}::uuid[]) ${only}
    group by hour`.execute(trx);
}

/** The insights_rebuild_site job: all of a site's hours, for its doors now. */
export async function rebuildSiteHours(db: DB, siteId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const scope = await siteScope(trx, siteId);
    if (!scope) return;
    // Its cameras first, so a rollup or reset of one of them that has not committed is read once it has (./locks.ts).
    for (const cameraId of scope.cameras.map((camera) => camera.id).sort()) await lockCamera(trx, cameraId);
    await lockSite(trx, siteId);
    await writeHours(trx, scope, siteId, null);
    await trx
      .updateTable("sites")
      .set({ hours_doors: doorsKey(scope) })
      .where("id", "=", siteId)
      .execute();
  });
}

/** Books a rebuild of the site's hours (one waiting job per site). */
export async function queueSiteRebuild(db: DB, siteId: string): Promise<void> {
  await enqueueKeyed(db, "insights_rebuild_site", { siteId }, { key: `insights_rebuild_site:${siteId}`, runAt: new Date(), mode: "preserve_run_at" });
}

/**
 * After these cameras' hourly rollup changed in this transaction (a rollup, or a door's reset; their locks held): the
 * same hours of their sites (`hours`), or all of them (null), each site under its lock. The key is read under the
 * lock: a build running meanwhile has committed by then, and a site not built (or built for other doors) is left to
 * its build, which waits for this transaction.
 */
export async function refreshSiteHours(trx: DB, cameraIds: readonly string[], hours: readonly Date[] | null): Promise<void> {
  if (cameraIds.length === 0) return;
  const sites = await trx
    .selectFrom("site_cameras")
    .select("site_id")
    .distinct()
    .where("camera_id", "in", [...cameraIds])
    .orderBy("site_id")
    .execute();
  const hourTexts = hours ? [...new Set(hours.map((hour) => hour.toISOString()))] : null;
  for (const { site_id: siteId } of sites) {
    await lockSite(trx, siteId);
    const built = await trx.selectFrom("sites").select("hours_doors").where("id", "=", siteId).executeTakeFirst();
    if (!built || built.hours_doors === null) continue;
    const scope = await siteScope(trx, siteId);
    if (scope && doorsKey(scope) === built.hours_doors) await writeHours(trx, scope, siteId, hourTexts);
  }
}

/**
 * The report's hours from its site's table, when the report is of a whole site whose hours are built for its doors
 * now; else null (the caller reads the rollups), and a rebuild is booked.
 */
export async function siteHourTraffic(db: DB, scope: Scope, range: { from: Date; to: Date }): Promise<HourDelta[] | null> {
  if (!scope.site) return null;
  if (scope.site.hoursDoors !== doorsKey(scope)) {
    await queueSiteRebuild(db, scope.site.id);
    return null;
  }
  const { rows } = await sql<HourDelta>`
    select hour as at, entries, exits, extract(isodow from hour at time zone ${scope.timeZone})::int as dow,
      extract(hour from hour at time zone ${scope.timeZone})::int as hour
    from site_hours where site_id = ${scope.site.id}::uuid and hour >= ${range.from} and hour < ${range.to}
    order by hour`.execute(db);
  return rows;
}
