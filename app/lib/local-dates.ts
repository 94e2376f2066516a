// Local dates and times in a time zone, and the relative periods of Insights, shared by its page and the server.
// PostgreSQL does the arithmetic of the counts themselves (AT TIME ZONE); this is for the few instants named outside
// it: a window's start, a period's first and last date and its midnights, a schedule's next run.
import type { RelativePeriod } from "#app/schemas/insights";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall-clock fields of an instant in a time zone. */
export function wallClock(at: Date, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The time zone's offset from UTC at an instant, in milliseconds (east positive). */
function offsetAt(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The instant a local date and time ("2026-03-29", "10:00") names in a time zone. A time skipped by a daylight-saving
 * change (02:30 on the spring-forward night) is read with the offset before the change, i.e. an hour later on the
 * clock, as PostgreSQL does; a time that happens twice is its first occurrence.
 */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const [hour, minute] = time.split(":").map(Number) as [number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // The offsets a day either side bracket any change that night; a candidate that reads back as the asked time is one.
  const before = asUtc - offsetAt(new Date(asUtc - 86_400_000), timeZone);
  const after = asUtc - offsetAt(new Date(asUtc + 86_400_000), timeZone);
  const reads = (instant: number) => {
    const w = wallClock(new Date(instant), timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) === asUtc;
  };
  const matching = [before, after].filter(reads);
  return new Date(matching.length > 0 ? Math.min(...matching) : before);
}

/** The local date (YYYY-MM-DD) of an instant in a time zone. */
export function localDate(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  return `${w.year}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
}

/** A date `days` after (or before) a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The same calendar date `years` later (29 February becomes 28 February in a common year). */
export function addYears(date: string, years: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year + years, month - 1, day));
  return target.getUTCDate() === day ? target.toISOString().slice(0, 10) : new Date(Date.UTC(year + years, month, 0)).toISOString().slice(0, 10);
}

/** Days from one date to another (to − from). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** 0 = Sunday … 6 = Saturday, of a YYYY-MM-DD date. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** The first and last local dates (inclusive) a relative period names on the day `now` is in `timeZone`. Weeks start on Monday. */
export function relativePeriod(period: RelativePeriod, timeZone: string, now: Date): { from: string; to: string } {
  const today = localDate(now, timeZone);
  const monday = addDays(today, -((weekday(today) + 6) % 7));
  const firstOfMonth = `${today.slice(0, 8)}01`;
  switch (period) {
    case "today":
      return { from: today, to: today };
    case "yesterday":
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case "last7Days":
      return { from: addDays(today, -6), to: today };
    case "thisWeek":
      return { from: monday, to: today };
    case "lastWeek":
      return { from: addDays(monday, -7), to: addDays(monday, -1) };
    case "last30Days":
      return { from: addDays(today, -29), to: today };
    case "thisMonth":
      return { from: firstOfMonth, to: today };
    case "lastMonth": {
      const lastOfPrevious = addDays(firstOfMonth, -1);
      return { from: `${lastOfPrevious.slice(0, 8)}01`, to: lastOfPrevious };
    }
    case "thisYear":
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
  }
}
