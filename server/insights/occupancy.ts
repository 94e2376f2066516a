// Occupancy: the people inside, counted as entries minus exits through the site's doors since the day started (the
// site's day-start hour, when the building is empty), never below zero (an exit seen without its entry is not a
// person owed). Read from the minutes while they are kept, else from the hours (the peak's time is then its hour).
import type { InsightsReport } from "#app/schemas/insights";
import type { DB } from "#db/index";
import * as q from "./queries";
import type { Delta } from "./queries";
import type { Period } from "./period";
import type { Scope } from "./scope";
import { addDays, zonedInstant } from "#app/lib/local-dates";

const DAY_MS = 86_400_000;
/** The curve is drawn for periods up to a month: by quarter hours for a day or two, else by hours. */
const CURVE_MAX_DAYS = 31;

export const dayStartClock = (scope: Scope) => `${String(scope.dayStartsAt).padStart(2, "0")}:00`;

/** Minutes when the whole span is within the user's minute retention and short enough, else hours. */
export function detailFor(scope: Scope, from: Date, days: number, now: Date): "minute" | "hour" {
  return days <= CURVE_MAX_DAYS && from.getTime() >= now.getTime() - scope.minuteRetentionDays * DAY_MS ? "minute" : "hour";
}

/**
 * Walks entries and exits in time order, resetting at each boundary (the day starts): calls `step` after each
 * change with the occupancy then, and answers the occupancy at any instant asked in order (`at`).
 */
export function occupancyWalker(rows: readonly Delta[], boundaries: readonly Date[]) {
  let index = 0;
  let day = 0;
  let occupancy = 0;
  const reach = (time: number) => {
    while (day + 1 < boundaries.length && time >= boundaries[day + 1]!.getTime()) {
      day++;
      occupancy = 0;
    }
  };
  return {
    /** Consumes the rows before `until`, calling `seen` with each row's day index and the occupancy after it. */
    until(until: number, seen: (row: Delta, day: number, occupancy: number) => void): void {
      while (index < rows.length && rows[index]!.at.getTime() < until) {
        const row = rows[index++]!;
        reach(row.at.getTime());
        occupancy = Math.max(0, occupancy + row.entries - row.exits);
        seen(row, day, occupancy);
      }
      reach(until);
    },
    get occupancy() {
      return occupancy;
    },
  };
}

/** `hourly`: the report's hours (they cover the occupancy days), read when the minutes are not. */
export async function occupancy(db: DB, scope: Scope, p: Period, days: number, now: Date, hourly: Promise<q.HourDelta[]>): Promise<InsightsReport["occupancy"]> {
  const clock = dayStartClock(scope);
  const dates = Array.from({ length: days }, (_, i) => addDays(p.fromDate, i));
  const boundaries = [...dates, addDays(p.toDate, 1)].map((date) => zonedInstant(date, clock, scope.timeZone));
  const start = boundaries[0]!;
  const end = boundaries.at(-1)!;
  const detail = detailFor(scope, start, days, now);
  const rows = detail === "minute" ? await q.minuteTraffic(db, scope, { from: start, to: end }) : (await hourly).filter((row) => row.at >= start && row.at < end);

  const perDay = dates.map((date) => ({ date, entries: 0, exits: 0, peak: 0, peakAt: null as string | null }));
  const seen = (row: Delta, day: number, occupied: number) => {
    const figures = perDay[day]!;
    figures.entries += row.entries;
    figures.exits += row.exits;
    if (occupied > figures.peak) {
      figures.peak = occupied;
      figures.peakAt = row.at.toISOString();
    }
  };
  const walker = occupancyWalker(rows, boundaries);
  const curve: InsightsReport["occupancy"]["curve"] = [];
  if (days <= CURVE_MAX_DAYS) {
    const step = days <= 2 ? 15 * 60_000 : 3600_000;
    for (let at = start.getTime(); at < end.getTime(); at += step) {
      walker.until(at, seen);
      let most = walker.occupancy;
      walker.until(at + step, (row, day, occupied) => {
        seen(row, day, occupied);
        most = Math.max(most, occupied);
      });
      curve.push({ at: new Date(at).toISOString(), occupancy: most });
    }
  } else {
    walker.until(end.getTime(), seen);
  }
  const busiest = perDay.reduce<(typeof perDay)[number] | null>((best, day) => (day.peak > (best?.peak ?? 0) ? day : best), null);
  return { peak: busiest?.peak ?? (rows.length > 0 ? 0 : null), peakAt: busiest?.peakAt ?? null, days: perDay, curve, detail };
}
