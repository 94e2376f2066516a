// A report: entries and exits over time, occupancy through the day, the week's busy hours, each line's and zone's
// figures with dwell times, and the people-count sessions, for a period of local dates in the report's time zone.
import type { InsightsReport, ReportQuery, Resolution } from "#app/schemas/insights";
import { DWELL_BUCKETS, MAX_REPORT_DAYS, MAX_SERIES_POINTS } from "#app/schemas/insights";
import type { DB } from "#db/index";
import { ProblemError } from "../errors";
import { histogramMedian } from "./dwell";
import * as q from "./queries";
import { dayStartClock, occupancy } from "./occupancy";
import { period, type Period } from "./period";
import { resolveScope, type Scope } from "./scope";
import { siteHourTraffic } from "./site-hours";
import { addDays, addYears, daysBetween, localDate, weekday, zonedInstant } from "#app/lib/local-dates";

const MINUTE_MS = 60_000;
const HOUR_MS = 3600_000;

function checkPeriod(fromDate: string, toDate: string): number {
  const days = daysBetween(fromDate, toDate) + 1;
  if (days < 1) throw new ProblemError(400, "from must not be after to", { errors: { from: ["must not be after to"] } });
  if (days > MAX_REPORT_DAYS) throw new ProblemError(400, `Ask for at most ${MAX_REPORT_DAYS} days at once`, { errors: { from: [`at most ${MAX_REPORT_DAYS} days before to`] } });
  return days;
}

/** Hours for up to two days, else days: a year by day is 366 points. */
export const defaultResolution = (days: number): Resolution => (days <= 2 ? "hour" : "day");

/** The starts of the series' steps: instants for minutes and hours, local dates for days, weeks (Mondays) and months. */
function steps(resolution: Resolution, p: Period): { starts: string[]; instants: Date[] } {
  const starts: string[] = [];
  if (resolution === "minute" || resolution === "hour") {
    const step = resolution === "minute" ? MINUTE_MS : HOUR_MS;
    const count = Math.ceil((p.to.getTime() - p.from.getTime()) / step);
    if (count > MAX_SERIES_POINTS) throw tooManyPoints();
    const instants = Array.from({ length: count }, (_, i) => new Date(p.from.getTime() + i * step));
    return { starts: instants.map((at) => at.toISOString()), instants };
  }
  let date = resolution === "week" ? addDays(p.fromDate, -((weekday(p.fromDate) + 6) % 7)) : resolution === "month" ? `${p.fromDate.slice(0, 8)}01` : p.fromDate;
  while (date <= p.toDate) {
    starts.push(date);
    if (starts.length > MAX_SERIES_POINTS) throw tooManyPoints();
    date = resolution === "day" ? addDays(date, 1) : resolution === "week" ? addDays(date, 7) : nextMonth(date);
  }
  return { starts, instants: [] };
}

const nextMonth = (date: string) => {
  const [year, month] = date.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
};

const tooManyPoints = () =>
  new ProblemError(400, `That is more than ${MAX_SERIES_POINTS} steps: choose a coarser resolution for this period`, {
    errors: { resolution: ["too fine for this period"] },
  });

/** The bucket (a step's start) a local date falls in. */
function bucketOfDate(resolution: Resolution, date: string): string {
  if (resolution === "week") return addDays(date, -((weekday(date) + 6) % 7));
  if (resolution === "month") return `${date.slice(0, 8)}01`;
  return date;
}

/** The report's two readings of the counts: its hours, and its days from a year before the period to its end. */
interface Readings {
  hourly: Promise<q.HourDelta[]>;
  daily: Promise<{ day: string; entries: number; exits: number }[]>;
}

/** The period before (of the same length) and the same dates a year before. */
function comparisons(p: Period, days: number) {
  return { previous: { from: addDays(p.fromDate, -days), to: addDays(p.fromDate, -1) }, lastYear: { from: addYears(p.fromDate, -1), to: addYears(p.toDate, -1) } };
}

async function traffic(db: DB, scope: Scope, resolution: Resolution, p: Period, readings: Readings): Promise<InsightsReport["traffic"]> {
  const { hourly, daily } = readings;
  const { starts, instants } = steps(resolution, p);
  const totals = new Map<string, { entries: number; exits: number }>(starts.map((start) => [start, { entries: 0, exits: 0 }]));
  if (resolution === "minute" || resolution === "hour") {
    const step = resolution === "minute" ? MINUTE_MS : HOUR_MS;
    const rows = resolution === "minute" ? await q.minuteTraffic(db, scope, p) : (await hourly).filter((row) => row.at < p.to);
    for (const row of rows) {
      // Rows are UTC minutes or hours; in a zone whose offset is not whole hours an hour row lands in the step it starts in.
      const start = instants[Math.floor((row.at.getTime() - p.from.getTime()) / step)];
      const bucket = start && totals.get(start.toISOString());
      if (bucket) {
        bucket.entries += row.entries;
        bucket.exits += row.exits;
      }
    }
    return starts.map((start) => ({ start, ...totals.get(start)! }));
  }
  for (const row of await daily) {
    if (row.day < p.fromDate) continue;
    const bucket = totals.get(bucketOfDate(resolution, row.day));
    if (bucket) {
      bucket.entries += row.entries;
      bucket.exits += row.exits;
    }
  }
  return starts.map((date) => ({ start: zonedInstant(date, "00:00", scope.timeZone).toISOString(), ...totals.get(date)! }));
}

/** This period's totals, the same length just before, and the same dates a year before (null without data then). */
async function totals(p: Period, days: number, daily: Readings["daily"]): Promise<InsightsReport["totals"]> {
  const { previous, lastYear } = comparisons(p, days);
  const rows = await daily;
  const sum = (range: { from: string; to: string }) => {
    const within = rows.filter((row) => row.day >= range.from && row.day <= range.to);
    return { ...range, entries: within.reduce((s, row) => s + row.entries, 0), exits: within.reduce((s, row) => s + row.exits, 0), any: within.length > 0 };
  };
  const { any: _current, ...current } = sum({ from: p.fromDate, to: p.toDate });
  const { any: _previous, ...before } = sum(previous);
  const { any: lastYearHasData, ...yearBefore } = sum(lastYear);
  return { ...current, previous: before, lastYear: lastYearHasData ? yearBefore : null };
}

/** Entries by local weekday (0 = Monday) and hour of day. */
async function weekGrid(p: Period, hourly: Promise<q.HourDelta[]>): Promise<number[][]> {
  const grid = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  for (const row of await hourly) if (row.at < p.to) grid[row.dow - 1]![row.hour]! += row.entries;
  return grid;
}

async function targets(db: DB, scope: Scope, p: Period): Promise<Pick<InsightsReport, "lines" | "zones">> {
  const [rows, dwell] = await Promise.all([q.targetTotals(db, scope, p), q.dwellHistogram(db, scope, p)]);
  const count = (id: string, kind: string) => rows.find((row) => row.id === id && row.kind === kind)?.count ?? 0;
  return {
    lines: scope.lines.map((line) => ({ ...line, in: count(line.id, "in"), out: count(line.id, "out") })),
    zones: scope.zones.map((zone) => {
      const histogram = Array.from({ length: DWELL_BUCKETS.length + 1 }, (_, bucket) => dwell.find((row) => row.zone_id === zone.id && row.bucket === bucket)?.count ?? 0);
      return {
        ...zone,
        entered: count(zone.id, "entered"),
        exited: count(zone.id, "exited"),
        loitering: count(zone.id, "loitering"),
        dwell: { median: histogramMedian(histogram), buckets: histogram.map((c, bucket) => ({ upTo: DWELL_BUCKETS[bucket] ?? null, count: c })) },
      };
    }),
  };
}

async function sessions(db: DB, scope: Scope, p: Period): Promise<InsightsReport["sessions"]> {
  return (await q.countSessions(db, scope, p)).map((session) => ({
    id: session.id,
    title: session.title,
    source: session.source,
    cameraName: session.camera_name,
    average: session.average_count,
    max: session.max_count,
    points: session.points.map((point) => ({ at: point.captured_at.toISOString(), count: point.count })),
  }));
}

/** The report for a period of local dates (ReportQuery: the API's query string, parsed). */
export async function buildReport(db: DB, userId: string, query: ReportQuery, now = new Date()): Promise<InsightsReport> {
  if (query.from && query.to) checkPeriod(query.from, query.to);
  const scope = await resolveScope(db, userId, {
    siteId: query.siteId,
    cameraIds: query.cameraIds ?? [],
    lineIds: query.lineIds ?? [],
    zoneIds: query.zoneIds ?? [],
    labels: query.labels ?? [],
    timeZone: query.timeZone,
  });
  const to = query.to ?? localDate(now, scope.timeZone);
  const from = query.from ?? addDays(to, -6);
  const days = checkPeriod(from, to);
  const resolution = query.resolution ?? defaultResolution(days);
  const p = period(from, to, scope.timeZone);
  // One reading of the hours serves the hourly series, the week's busy hours and occupancy from hours: the period and
  // the occupancy day that runs past its last midnight up to the day-start hour. A whole site's are kept summed.
  const hours = { from: p.from, to: zonedInstant(addDays(to, 1), dayStartClock(scope), scope.timeZone) };
  const hourly = siteHourTraffic(db, scope, hours).then((rows) => rows ?? q.hourTraffic(db, scope, hours));
  // One reading of the days serves the daily series and the totals with their comparisons.
  const { previous, lastYear } = comparisons(p, days);
  const daily = q.dailyTraffic(db, scope, period(lastYear.from < previous.from ? lastYear.from : previous.from, to, scope.timeZone));
  const [series, sums, grid, figures, counted, occupied] = await Promise.all([
    traffic(db, scope, resolution, p, { hourly, daily }),
    totals(p, days, daily),
    weekGrid(p, hourly),
    targets(db, scope, p),
    sessions(db, scope, p),
    occupancy(db, scope, p, days, now, hourly),
  ]);
  return {
    title: scope.title,
    timeZone: scope.timeZone,
    from,
    to,
    resolution,
    capacity: scope.capacity,
    totals: sums,
    traffic: series,
    occupancy: occupied,
    weekHours: grid,
    ...figures,
    sessions: counted,
  };
}

/** Today's local date in a time zone (the default end of a period). */
export const today = (timeZone: string, now = new Date()) => localDate(now, timeZone);
