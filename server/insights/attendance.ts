// Attendance: every occurrence of a site's services and opening hours in a period — who came in during the window,
// the most people in at once, and when they arrived — in the site's time zone, across daylight-saving changes.
import type { Attendance, AttendanceQuery, Occurrence } from "#app/schemas/insights";
import { MAX_REPORT_DAYS } from "#app/schemas/insights";
import { sql } from "kysely";
import type { DB } from "#db/index";
import { notFound, ProblemError } from "../errors";
import { dayStartClock, detailFor, occupancyWalker } from "./occupancy";
import { resolveScope, type Scope } from "./scope";
import { addDays, daysBetween, localDate, weekday, zonedInstant } from "#app/lib/local-dates";

const MAX_OCCURRENCES = 1000;
const ARRIVAL_STEP_MS = 15 * 60_000;
const ARRIVALS_BEFORE_MS = 30 * 60_000;

interface Planned {
  windowId: string;
  name: string;
  date: string;
  start: Date;
  end: Date;
  /** The start of the occupancy day the window is in: people already inside at the window's start count toward its peak. */
  dayStart: Date;
}

/** Entries and exits per minute (or hour) of each range, in one statement. */
async function deltas(db: DB, scope: Scope, detail: "minute" | "hour", ranges: readonly { from: Date; to: Date }[]) {
  if (ranges.length === 0) return [];
  const table = detail === "minute" ? sql`vision_counts` : sql`vision_count_hours`;
  const column = detail === "minute" ? sql`minute` : sql`hour`;
  const doors = [...scope.doorsIn, ...scope.doorsOut];
  const { rows } = await sql<{ i: number; at: Date; entries: number; exits: number }>`
    select r.i::int as i, c.at, c.entries, c.exits
    from unnest(${ranges.map((r) => r.from.toISOString())}::timestamptz[], ${ranges.map((r) => r.to.toISOString())}::timestamptz[]) with ordinality as r(s, e, i)
    cross join lateral (
      select ${column} as at,
        coalesce(sum(count) filter (where (kind = 'in' and line_id = any(${scope.doorsIn}::uuid[])) or (kind = 'out' and line_id = any(${scope.doorsOut}::uuid[]))), 0)::int as entries,
        coalesce(sum(count) filter (where (kind = 'out' and line_id = any(${scope.doorsIn}::uuid[])) or (kind = 'in' and line_id = any(${scope.doorsOut}::uuid[]))), 0)::int as exits
      from ${table}
      where user_id = ${scope.userId}::uuid and camera_id = any(${scope.cameras.map((camera) => camera.id)}::uuid[])
        and ${column} >= r.s and ${column} < r.e and line_id = any(${doors}::uuid[])
      group by 1
    ) c
    order by r.i, c.at`.execute(db);
  return rows;
}

function measure(plan: Planned, rows: readonly { at: Date; entries: number; exits: number }[]): Occurrence {
  const walker = occupancyWalker(rows, [plan.dayStart]);
  walker.until(plan.start.getTime(), () => {});
  let peak = walker.occupancy;
  let peakAt: string | null = peak > 0 ? plan.start.toISOString() : null;
  let entries = 0;
  let exits = 0;
  walker.until(plan.end.getTime(), (row, _day, occupied) => {
    entries += row.entries;
    exits += row.exits;
    if (occupied > peak) {
      peak = occupied;
      peakAt = row.at.toISOString();
    }
  });
  const arrivalsFrom = plan.start.getTime() - ARRIVALS_BEFORE_MS;
  const arrivals = Array.from({ length: Math.ceil((plan.end.getTime() - arrivalsFrom) / ARRIVAL_STEP_MS) }, (_, i) => ({
    start: new Date(arrivalsFrom + i * ARRIVAL_STEP_MS).toISOString(),
    entries: 0,
  }));
  for (const row of rows) {
    const slot = arrivals[Math.floor((row.at.getTime() - arrivalsFrom) / ARRIVAL_STEP_MS)];
    if (slot && row.at.getTime() >= arrivalsFrom) slot.entries += row.entries;
  }
  return { windowId: plan.windowId, name: plan.name, date: plan.date, start: plan.start.toISOString(), end: plan.end.toISOString(), entries, exits, peak, peakAt, arrivals };
}

export async function attendance(db: DB, userId: string, siteId: string, query: AttendanceQuery, now = new Date()): Promise<Attendance> {
  const scope = await resolveScope(db, userId, { siteId, cameraIds: [], lineIds: [], zoneIds: [], labels: [] });
  const to = query.to ?? localDate(now, scope.timeZone);
  const from = query.from ?? addDays(to, -83);
  const days = daysBetween(from, to) + 1;
  if (days < 1) throw new ProblemError(400, "from must not be after to", { errors: { from: ["must not be after to"] } });
  if (days > MAX_REPORT_DAYS) throw new ProblemError(400, `Ask for at most ${MAX_REPORT_DAYS} days at once`, { errors: { from: [`at most ${MAX_REPORT_DAYS} days before to`] } });

  let windows = await db.selectFrom("site_windows").selectAll().where("user_id", "=", userId).where("site_id", "=", siteId).orderBy("starts_at").orderBy("created_at").execute();
  const closed = new Set(windows.filter((w) => w.kind === "closed").map((w) => w.date));
  if (query.windowId) {
    windows = windows.filter((w) => w.id === query.windowId!.toLowerCase());
    if (windows.length === 0) throw notFound("Window");
  }
  const clock = dayStartClock(scope);
  const planned: Planned[] = [];
  for (let i = 0; i < days; i++) {
    const date = addDays(from, i);
    for (const w of windows) {
      const happens = w.kind === "weekly" ? w.weekdays.includes(weekday(date)) && !closed.has(date) : w.kind === "once" && w.date === date;
      if (!happens) continue;
      const start = zonedInstant(date, w.starts_at, scope.timeZone);
      if (start > now) continue;
      if (planned.length === MAX_OCCURRENCES)
        throw new ProblemError(400, `More than ${MAX_OCCURRENCES} occurrences: choose a shorter period`, { errors: { from: ["choose a shorter period"] } });
      const dayStart = zonedInstant(w.starts_at < clock ? addDays(date, -1) : date, clock, scope.timeZone);
      planned.push({ windowId: w.id, name: w.name, date, start, end: zonedInstant(date, w.ends_at, scope.timeZone), dayStart });
    }
  }

  // Each occurrence from the minutes while they are kept, else the hours.
  const occurrences: Occurrence[] = new Array(planned.length);
  for (const detail of ["minute", "hour"] as const) {
    const mine = planned.map((plan, index) => ({ plan, index })).filter(({ plan }) => detailFor(scope, plan.dayStart, 1, now) === detail);
    const rows = await deltas(
      db,
      scope,
      detail,
      mine.map(({ plan }) => ({ from: plan.dayStart, to: plan.end })),
    );
    const byRange = new Map<number, typeof rows>();
    for (const row of rows) {
      const list = byRange.get(row.i);
      if (list) list.push(row);
      else byRange.set(row.i, [row]);
    }
    mine.forEach(({ plan, index }, i) => {
      occurrences[index] = measure(plan, byRange.get(i + 1) ?? []);
    });
  }
  return { siteId, timeZone: scope.timeZone, from, to, occurrences };
}
