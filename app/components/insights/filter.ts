// The Insights page's filter, kept in the URL's query so a view can be bookmarked and reloaded: a site or cameras,
// lines, zones, classes, a period (a preset read on the day it is opened, or fixed dates) and a resolution. Pure.
import { RESOLUTIONS, type RelativePeriod, type Resolution } from "../../schemas/insights";
import type { ReportQueryInput } from "../../lib/api/insights";
import { daysBetween, localDate, relativePeriod } from "../../lib/local-dates";

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
