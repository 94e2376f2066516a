// The Insights page's filter, kept in the URL's query so a view can be bookmarked and reloaded: a site or cameras,
// lines, zones, classes, a period (a preset read on the day it is opened, or fixed dates) and a resolution. Pure.
import { RESOLUTIONS, type RelativePeriod, type Resolution } from "../../schemas/insights";
import type { ReportQueryInput } from "../../lib/api/insights";

export const PERIOD_PRESETS: { id: RelativePeriod; label: string }[] = [
  { id: "today", label: "Today" },
  { id: "yesterday", label: "Yesterday" },
  { id: "last7Days", label: "Last 7 days" },
  { id: "thisWeek", label: "This week" },
  { id: "lastWeek", label: "Last week" },
  { id: "last30Days", label: "Last 30 days" },
  { id: "thisMonth", label: "This month" },
  { id: "lastMonth", label: "Last month" },
  { id: "thisYear", label: "This year" },
];

export type Period = RelativePeriod | "custom";

export interface InsightsFilter {
  siteId: string | null;
  cameraIds: string[];
  lineIds: string[];
  zoneIds: string[];
  labels: string[];
  period: Period;
  /** The custom period's dates (YYYY-MM-DD); ignored for a preset. */
  from: string | null;
  to: string | null;
  /** null: the server picks by the period's length. */
  resolution: Resolution | null;
}

export const DEFAULT_PERIOD: RelativePeriod = "last7Days";
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const list = (params: URLSearchParams, name: string) =>
  (params.get(name) ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

export function readFilter(params: URLSearchParams): InsightsFilter {
  const period = params.get("period");
  const from = params.get("from");
  const to = params.get("to");
  const resolution = params.get("resolution");
  const custom = period === "custom" || (period === null && from !== null);
  return {
    siteId: params.get("siteId") || null,
    cameraIds: list(params, "cameraIds"),
    lineIds: list(params, "lineIds"),
    zoneIds: list(params, "zoneIds"),
    labels: list(params, "labels"),
    period: custom ? "custom" : (PERIOD_PRESETS.find((p) => p.id === period)?.id ?? DEFAULT_PERIOD),
    from: from && DATE.test(from) ? from : null,
    to: to && DATE.test(to) ? to : null,
    resolution: (RESOLUTIONS as readonly string[]).includes(resolution ?? "") ? (resolution as Resolution) : null,
  };
}

/** The filter as the page's query string (only what differs from the defaults). */
export function writeFilter(filter: InsightsFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.siteId) params.set("siteId", filter.siteId);
  for (const name of ["cameraIds", "lineIds", "zoneIds", "labels"] as const) if (filter[name].length) params.set(name, filter[name].join(","));
  if (filter.period !== DEFAULT_PERIOD) params.set("period", filter.period);
  if (filter.period === "custom") {
    if (filter.from) params.set("from", filter.from);
    if (filter.to) params.set("to", filter.to);
  }
  if (filter.resolution) params.set("resolution", filter.resolution);
  return params;
}

/** The first and last local dates (inclusive) of the filter's period on the day `now` is in `timeZone`. */
export function periodDates(filter: InsightsFilter, timeZone: string, now: Date): { from: string; to: string } {
  if (filter.period === "custom") {
    const today = localDate(now, timeZone);
    const from = filter.from ?? filter.to ?? today;
    const to = filter.to ?? from;
    return from <= to ? { from, to } : { from: to, to: from };
  }
  return relativePeriod(filter.period, timeZone, now);
}

/** The report API's query for the filter. */
export function reportQuery(filter: InsightsFilter, timeZone: string, now: Date): ReportQueryInput & { from: string; to: string } {
  const { from, to } = periodDates(filter, timeZone, now);
  const resolution = filter.resolution === "minute" && daysBetween(from, to) > 0 ? undefined : (filter.resolution ?? undefined);
  return {
    siteId: filter.siteId ?? undefined,
    cameraIds: filter.cameraIds.join(",") || undefined,
    lineIds: filter.lineIds.join(",") || undefined,
    zoneIds: filter.zoneIds.join(",") || undefined,
    labels: filter.labels.join(",") || undefined,
    from,
    to,
    resolution,
  };
}

/** Minute steps only for a day or less (the series would be too long otherwise). */
export function allowedResolutions(from: string, to: string): Resolution[] {
  return RESOLUTIONS.filter((r) => r !== "minute" || daysBetween(from, to) === 0);
}

// ---- Local dates (weeks start on Monday, as the server's relative periods do) -----------------------------------------

export function localDate(at: Date, timeZone: string): string {
  // en-CA writes YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export function relativePeriod(period: RelativePeriod, timeZone: string, now: Date): { from: string; to: string } {
  const today = localDate(now, timeZone);
  const monday = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
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

/** The instant a local date's midnight is in a time zone (the first instant of that day, across daylight-saving changes). */
export function zonedMidnight(date: string, timeZone: string): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day);
  const offsetAt = (at: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" })
        .formatToParts(new Date(at))
        .map((part) => [part.type, Number(part.value)]),
    );
    return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!) - Math.floor(at / 60_000) * 60_000;
  };
  // Twice: the offset at the first guess may be the other side of a change that night.
  const guess = wall - offsetAt(wall);
  return new Date(wall - offsetAt(guess));
}
