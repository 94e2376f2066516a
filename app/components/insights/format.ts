// Numbers and times for people: the user's locale (the browser's), every time in the report's time zone.
import type { Resolution } from "../../schemas/insights";

const locale = () => (typeof navigator === "undefined" ? "en" : navigator.language);

export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: 1, ...options }).format(value);
}

/** A change against an earlier figure, "+12 %" or "−3 %"; null when there is nothing to compare with. */
export function formatChange(now: number, before: number): string | null {
  if (before === 0) return null;
  const change = (now - before) / before;
  return new Intl.NumberFormat(locale(), { style: "percent", maximumFractionDigits: 1, signDisplay: "exceptZero" }).format(change);
}

/** A local date (YYYY-MM-DD) as the user writes it, e.g. "Mon, 3 Nov 2026". */
export function formatDate(date: string, options: Intl.DateTimeFormatOptions = { weekday: "short", day: "numeric", month: "short", year: "numeric" }): string {
  return new Intl.DateTimeFormat(locale(), { ...options, timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`));
}

/** An instant in the time zone, as precise as the resolution it stands for. */
export function formatInstant(at: string | number | Date, timeZone: string, resolution: Resolution | "time" = "minute"): string {
  const options: Intl.DateTimeFormatOptions =
    resolution === "minute"
      ? { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }
      : resolution === "hour"
        ? { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }
        : resolution === "time"
          ? { hour: "2-digit", minute: "2-digit" }
          : resolution === "month"
            ? { month: "long", year: "numeric" }
            : { weekday: "short", month: "short", day: "numeric", year: "numeric" };
  return new Intl.DateTimeFormat(locale(), { ...options, timeZone }).format(new Date(at));
}

/** A duration in seconds, "45 s", "3 min", "1.5 h". */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${formatNumber(seconds, { maximumFractionDigits: 0 })} s`;
  if (seconds < 3600) return `${formatNumber(seconds / 60)} min`;
  return `${formatNumber(seconds / 3600)} h`;
}

/** Weekday names for 0 = Monday … 6 = Sunday (the report's week-hours order). */
export function weekdayNames(style: "long" | "short" = "short"): string[] {
  const format = new Intl.DateTimeFormat(locale(), { weekday: style, timeZone: "UTC" });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2024, 0, 1 + i))));
}
