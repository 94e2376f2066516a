// The SQL of Insights' reports, over the rollups (days, hours) and, for fine detail, the minutes. Every query is
// scoped by the report's user and its cameras, lines, zones and classes (server/insights/scope.ts).
import { sql, type RawBuilder } from "kysely";
import type { DB } from "#db/index";
import type { Scope } from "./scope";

const labelsClause = (scope: Scope) => (scope.labels.length > 0 ? sql`and label = any(${scope.labels}::text[])` : sql``);
const doors = (scope: Scope) => [...scope.doorsIn, ...scope.doorsOut];

/** Entries and exits of the scope's doors, as aggregate columns over rows with line_id, kind and count. */
export const entriesExits = (scope: Scope) => sql`
  coalesce(sum(count) filter (where (kind = 'in' and line_id = any(${scope.doorsIn}::uuid[])) or (kind = 'out' and line_id = any(${scope.doorsOut}::uuid[]))), 0)::int as entries,
  coalesce(sum(count) filter (where (kind = 'out' and line_id = any(${scope.doorsIn}::uuid[])) or (kind = 'in' and line_id = any(${scope.doorsOut}::uuid[]))), 0)::int as exits`;

/** The rows of the scope's doors, or of its doors and zones. */
const targets = (scope: Scope, which: "doors" | "all") =>
  which === "doors" ? sql`line_id = any(${doors(scope)}::uuid[])` : sql`(line_id = any(${doors(scope)}::uuid[]) or zone_id = any(${scope.zones.map((zone) => zone.id)}::uuid[]))`;

/**
 * Rows (day, line_id, zone_id, kind, count) for local dates from..to: the daily rollup of cameras whose days are in the
 * report's time zone, the hours of the others grouped by their local date. A branch with no cameras is left out
 * (an empty camera list would still have PostgreSQL scan the user's rows for the period).
 */
function dayRows(scope: Scope, range: { fromDate: string; toDate: string; from: Date; to: Date }, which: "doors" | "all"): RawBuilder<unknown> {
  const branches: RawBuilder<unknown>[] = [];
  if (scope.camerasInZone.length > 0)
    branches.push(sql`
      select day, line_id, zone_id, kind, count from vision_count_days
      where user_id = ${scope.userId}::uuid and camera_id = any(${scope.camerasInZone}::uuid[]) and time_zone = ${scope.timeZone}
        and day between ${range.fromDate}::date and ${range.toDate}::date and ${targets(scope, which)} ${labelsClause(scope)}`);
  if (scope.camerasOtherZone.length > 0)
    branches.push(sql`
      select (hour at time zone ${scope.timeZone})::date as day, line_id, zone_id, kind, count from vision_count_hours
      where user_id = ${scope.userId}::uuid and camera_id = any(${scope.camerasOtherZone}::uuid[])
        and hour >= ${range.from} and hour < ${range.to} and ${targets(scope, which)} ${labelsClause(scope)}`);
  if (branches.length === 0) return sql`select null::date as day, null::uuid as line_id, null::uuid as zone_id, null::text as kind, 0 as count where false`;
  return sql.join(branches, sql` union all `);
}

/** Entries and exits per local date (YYYY-MM-DD), dates without counts left out. */
export async function dailyTraffic(db: DB, scope: Scope, range: { fromDate: string; toDate: string; from: Date; to: Date }) {
  const { rows } = await sql<{ day: string; entries: number; exits: number }>`
    select day::text as day, ${entriesExits(scope)} from (${dayRows(scope, range, "doors")}) r
    group by day order by day`.execute(db);
  return rows;
}

export interface Delta {
  at: Date;
  entries: number;
  exits: number;
}

/** Entries and exits per minute over [from, to), from the minutes themselves. */
export async function minuteTraffic(db: DB, scope: Scope, range: { from: Date; to: Date }): Promise<Delta[]> {
  const { rows } = await sql<Delta>`
    select minute as at, ${entriesExits(scope)} from vision_counts
    where user_id = ${scope.userId}::uuid and camera_id = any(${scope.cameras.map((camera) => camera.id)}::uuid[])
      and minute >= ${range.from} and minute < ${range.to} and line_id = any(${doors(scope)}::uuid[]) ${labelsClause(scope)}
    group by 1 order by 1`.execute(db);
  return rows;
}

export type HourDelta = Delta & { dow: number; hour: number };

/**
 * Entries and exits per UTC hour over [from, to), from the hourly rollup, with each hour's local weekday (1 = Monday)
 * and hour of day: one scan serves the hourly series, the week's busy hours and occupancy over long periods. The
 * time zone is applied to the grouped hours, not to every row (that conversion was most of the query's time).
 */
export async function hourTraffic(db: DB, scope: Scope, range: { from: Date; to: Date }): Promise<HourDelta[]> {
  const { rows } = await sql<HourDelta>`
    select at, entries, exits, extract(isodow from at at time zone ${scope.timeZone})::int as dow, extract(hour from at at time zone ${scope.timeZone})::int as hour
    from (
      select hour as at, ${entriesExits(scope)} from vision_count_hours
      where user_id = ${scope.userId}::uuid and camera_id = any(${scope.cameras.map((camera) => camera.id)}::uuid[])
        and hour >= ${range.from} and hour < ${range.to} and line_id = any(${doors(scope)}::uuid[]) ${labelsClause(scope)}
      group by 1
    ) hours order by at`.execute(db);
  return rows;
}

/** Each line's and zone's counts by kind over the period. */
export async function targetTotals(db: DB, scope: Scope, range: { fromDate: string; toDate: string; from: Date; to: Date }) {
  const { rows } = await sql<{ id: string; kind: string; count: number }>`
    select coalesce(line_id, zone_id) as id, kind, sum(count)::int as count from (${dayRows(scope, range, "all")}) r group by 1, 2`.execute(db);
  return rows;
}

const DAY_MS = 86_400_000;

/** Exits per zone and dwell bucket over [from, to): the whole UTC days within it from the daily histogram, the hours at its ends from the hourly one. */
export async function dwellHistogram(db: DB, scope: Scope, range: { from: Date; to: Date }) {
  const zones = sql`user_id = ${scope.userId}::uuid and zone_id = any(${scope.zones.map((zone) => zone.id)}::uuid[]) ${labelsClause(scope)}`;
  const firstDay = new Date(Math.ceil(range.from.getTime() / DAY_MS) * DAY_MS);
  const endDay = new Date(Math.floor(range.to.getTime() / DAY_MS) * DAY_MS);
  const parts =
    firstDay < endDay
      ? sql`
        select zone_id, bucket, count from vision_dwell_days where ${zones} and day >= ${firstDay.toISOString().slice(0, 10)}::date and day < ${endDay.toISOString().slice(0, 10)}::date
        union all
        select zone_id, bucket, count from vision_dwell_hours where ${zones} and ((hour >= ${range.from} and hour < ${firstDay}) or (hour >= ${endDay} and hour < ${range.to}))`
      : sql`select zone_id, bucket, count from vision_dwell_hours where ${zones} and hour >= ${range.from} and hour < ${range.to}`;
  const { rows } = await sql<{ zone_id: string; bucket: number; count: number }>`select zone_id, bucket, sum(count)::int as count from (${parts}) r group by 1, 2`.execute(db);
  return rows;
}

/** People-count sessions on the scope's cameras that overlap [from, to), with their snapshots' counts in that span. */
export async function countSessions(db: DB, scope: Scope, range: { from: Date; to: Date }) {
  if (scope.cameras.length === 0) return [];
  const sessions = await db
    .selectFrom("count_sessions")
    .select(["id", "title", "source", "camera_name", "average_count", "max_count"])
    .where("user_id", "=", scope.userId)
    .where(
      "camera_id",
      "in",
      scope.cameras.map((camera) => camera.id),
    )
    .where("created_at", "<", range.to)
    .where(sql<boolean>`coalesce(finished_at, now()) >= ${range.from}`)
    .orderBy("created_at")
    .limit(50)
    .execute();
  if (sessions.length === 0) return [];
  const points = await db
    .selectFrom("count_snapshots")
    .select(["session_id", "captured_at", sql<number>`coalesce(corrected_count, ai_count)`.as("count")])
    .where("user_id", "=", scope.userId)
    .where(
      "session_id",
      "in",
      sessions.map((session) => session.id),
    )
    .where("captured_at", ">=", range.from)
    .where("captured_at", "<", range.to)
    .orderBy("captured_at")
    .limit(5000)
    .execute();
  return sessions.map((session) => ({ ...session, points: points.filter((point) => point.session_id === session.id) }));
}
