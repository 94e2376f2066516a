// The report in words: what a scheduled e-mail says and what the PDF's totals note, from one place.
import type { InsightsReport } from "#app/schemas/insights";
import { formatLocal, localTime } from "./tables";

/** "+12%", "−5%", "no change", or "new" when there was nothing before. */
export function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? "no change" : "new";
  const percent = Math.round(((now - before) / before) * 100);
  return percent === 0 ? "no change" : `${percent > 0 ? "+" : "−"}${Math.abs(percent)}%`;
}

/** "at 2026-11-29 14:05, 80% of capacity" */
export function peakText(report: InsightsReport): string {
  const { peak, peakAt } = report.occupancy;
  if (peak === null) return "no entries";
  const at = peakAt ? `at ${formatLocal(localTime(peakAt, report.timeZone))}` : "";
  const capacity = report.capacity ? `${Math.round((peak / report.capacity) * 100)}% of capacity` : "";
  return [at, capacity].filter(Boolean).join(", ");
}

/** The day with the most entries (the first of equals), or null when nobody came. */
export function busiestDay(report: InsightsReport): { date: string; entries: number } | null {
  let best: { date: string; entries: number } | null = null;
  for (const day of report.occupancy.days) if (day.entries > 0 && (!best || day.entries > best.entries)) best = { date: day.date, entries: day.entries };
  return best;
}

/** The plain-text body of a scheduled report's e-mail: totals, against the period before, the peak and busiest day. */
export function reportMailText(report: InsightsReport, scheduleName: string): string {
  const { totals } = report;
  const lines = [
    `${report.title}: ${report.from} to ${report.to} (${report.timeZone})`,
    "",
    `Entries: ${totals.entries} (${change(totals.entries, totals.previous.entries)} vs ${totals.previous.entries} the period before)`,
    `Exits: ${totals.exits} (${change(totals.exits, totals.previous.exits)} vs ${totals.previous.exits} the period before)`,
  ];
  if (totals.lastYear) lines.push(`A year before: ${totals.lastYear.entries} entries (${change(totals.entries, totals.lastYear.entries)} this year)`);
  lines.push(report.occupancy.peak === null ? "Peak occupancy: none" : `Peak occupancy: ${report.occupancy.peak}${peakText(report) ? ` (${peakText(report)})` : ""}`);
  const busiest = busiestDay(report);
  lines.push(busiest ? `Busiest day: ${busiest.date} (${busiest.entries} entries)` : "Busiest day: none");
  lines.push("", "The full report, with its charts and tables, is attached as a PDF.", "", `You get this e-mail because of the scheduled report "${scheduleName}".`);
  return `${lines.join("\n")}\n`;
}
