// What the public pages of a share link show, worked out on the server: the shared report page (totals, charts as
// ECharts SVG, tables as text) and the lobby widget's number. Both answer the same 404 for any link that does not stand.
import type { DB } from "#db/index";
import type { RelativePeriod } from "#app/schemas/insights";
import { reportCharts, type ChartSvg } from "./charts";
import { summaryRows } from "./exports";
import { busiestDay, change, peakText } from "./summary";
import { cellText, reportTables } from "./tables";
import { sharedReport } from "./shares";
import { ProblemError } from "../../errors";

/** For a page's loader: a link that does not stand is the app's plain 404 page, which says nothing about why. */
export async function orNotFoundPage<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ProblemError && error.status === 404) throw new Response("Not Found", { status: 404, statusText: "Not Found" });
    throw error;
  }
}

export interface SharedPage {
  name: string;
  title: string;
  period: string;
  timeZone: string;
  totals: { label: string; value: string; note: string }[];
  charts: ChartSvg[];
  tables: { name: string; columns: { header: string; numeric: boolean }[]; rows: string[][] }[];
  summary: [string, string][];
}

export async function sharedReportPage(db: DB, id: string, query: { expires?: string; signature?: string }): Promise<SharedPage> {
  const { name, report } = await sharedReport(db, id, query);
  const { totals } = report;
  const busiest = busiestDay(report);
  return {
    name,
    title: report.title,
    period: report.from === report.to ? report.from : `${report.from} to ${report.to}`,
    timeZone: report.timeZone,
    totals: [
      { label: "Entries", value: String(totals.entries), note: `${change(totals.entries, totals.previous.entries)} vs the period before (${totals.previous.entries})` },
      { label: "Exits", value: String(totals.exits), note: `${change(totals.exits, totals.previous.exits)} vs the period before (${totals.previous.exits})` },
      { label: "Peak occupancy", value: report.occupancy.peak === null ? "–" : String(report.occupancy.peak), note: peakText(report) },
      { label: "Busiest day", value: busiest ? busiest.date : "–", note: busiest ? `${busiest.entries} entries` : "no entries" },
    ],
    charts: reportCharts(report),
    tables: reportTables(report).map((table) => ({
      name: table.name,
      columns: table.columns.map((column) => ({ header: column.header, numeric: column.numeric ?? false })),
      rows: table.rows.map((row) => row.map(cellText)),
    })),
    summary: summaryRows(report).map(([label, value]) => [label, String(value)]),
  };
}

const PERIOD_WORDS: Record<RelativePeriod, string> = {
  today: "today",
  yesterday: "yesterday",
  last7Days: "in the last 7 days",
  thisWeek: "this week",
  lastWeek: "last week",
  last30Days: "in the last 30 days",
  thisMonth: "this month",
  lastMonth: "last month",
  thisYear: "this year",
};

export interface WidgetFigures {
  title: string;
  entries: number;
  /** "visitors today" */
  caption: string;
  peak: number | null;
  /** "at 10:15" (local time), or "" */
  peakAt: string;
}

/** The lobby widget's figures: entries over the view's period (today, for a lobby) and the peak occupancy. */
export async function widgetFigures(db: DB, id: string, query: { expires?: string; signature?: string }): Promise<WidgetFigures> {
  const { view, report } = await sharedReport(db, id, query);
  const at = report.occupancy.peakAt ? peakText({ ...report, capacity: null }).replace(/^at \d{4}-\d{2}-\d{2} /, "at ") : "";
  return {
    title: report.title,
    entries: report.totals.entries,
    caption: `${report.totals.entries === 1 ? "visitor" : "visitors"} ${PERIOD_WORDS[view.period]}`,
    peak: report.occupancy.peak,
    peakAt: at,
  };
}
