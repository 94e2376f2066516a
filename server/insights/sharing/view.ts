// A saved view (a share link's, a scheduled report's): that it names only its owner's site, cameras, lines and zones,
// its time zone, and the report query it stands for on a given day.
import type { DB } from "#db/index";
import type { RelativePeriod, ReportFilter, ReportQuery } from "#app/schemas/insights";
import { notFound } from "../../errors";
import { relativePeriod } from "../time";

/** 404 unless every site, camera, line and zone the filter names is the user's (the same answer as for ids that exist nowhere). */
export async function requireOwnView(db: DB, userId: string, view: ReportFilter): Promise<void> {
  const owns = async (table: "sites" | "cameras" | "vision_lines" | "vision_zones", ids: readonly string[]) => {
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    if (unique.length === 0) return true;
    const found = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("user_id", "=", userId)
      .where("id", "in", unique)
      .executeTakeFirstOrThrow();
    return Number(found.n) === unique.length;
  };
  const checks = await Promise.all([
    owns("sites", view.siteId ? [view.siteId] : []),
    owns("cameras", view.cameraIds),
    owns("vision_lines", view.lineIds),
    owns("vision_zones", view.zoneIds),
  ]);
  const names = ["Site", "Camera", "Line", "Zone"];
  const missing = checks.findIndex((ok) => !ok);
  if (missing >= 0) throw notFound(names[missing]!);
}

/** The view's time zone: its site's, else the user's Insights setting, else UTC. */
export async function viewTimeZone(db: DB, userId: string, siteId: string | undefined): Promise<string> {
  if (siteId) {
    const site = await db.selectFrom("sites").select("time_zone").where("id", "=", siteId.toLowerCase()).where("user_id", "=", userId).executeTakeFirst();
    if (site) return site.time_zone;
  }
  const settings = await db.selectFrom("insight_settings").select("time_zone").where("user_id", "=", userId).executeTakeFirst();
  return settings?.time_zone ?? "UTC";
}

/** The report query of a view over a relative period, read in the view's time zone at `now`. */
export async function viewQuery(db: DB, userId: string, view: ReportFilter, period: RelativePeriod, now: Date): Promise<ReportQuery> {
  const timeZone = await viewTimeZone(db, userId, view.siteId);
  return {
    siteId: view.siteId,
    cameraIds: view.cameraIds,
    lineIds: view.lineIds,
    zoneIds: view.zoneIds,
    labels: view.labels,
    ...relativePeriod(period, timeZone, now),
    timeZone,
  };
}
