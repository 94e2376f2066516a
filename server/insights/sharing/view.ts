// A saved view (a share link's, a scheduled report's): that it names only its owner's site, cameras, lines and zones
// (the report's own scope check, ../scope.ts: another's id is a 404), its time zone, and the report query it stands
// for on a given day.
import type { DB } from "#db/index";
import type { RelativePeriod, ReportFilter, ReportQuery } from "#app/schemas/insights";
import { readSettings, resolveScope } from "../scope";
import { relativePeriod } from "#app/lib/local-dates";

/** The view's time zone (its site's, else the user's Insights setting, else UTC); 404 unless the view is all the user's. */
export async function requireOwnView(db: DB, userId: string, view: ReportFilter): Promise<{ timeZone: string }> {
  const { timeZone } = await resolveScope(db, userId, view);
  return { timeZone };
}

/** The view's time zone, or the user's setting when the view no longer stands (a camera deleted since). */
export async function viewTimeZone(db: DB, userId: string, view: ReportFilter): Promise<string> {
  try {
    return (await requireOwnView(db, userId, view)).timeZone;
  } catch {
    return (await readSettings(db, userId)).timeZone;
  }
}

/** The report query of a view over a relative period, read in the view's time zone at `now`. */
export async function viewQuery(db: DB, userId: string, view: ReportFilter, period: RelativePeriod, now: Date): Promise<ReportQuery> {
  const { timeZone } = await requireOwnView(db, userId, view);
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
