// What a report shows: the totals against the previous period and last year, then the charts (stacked on a phone,
// two a row on a desktop), dwell per zone and loitering, and the sessions on the same time axis.
import { Link } from "react-router";
import type { InsightsReport } from "../../schemas/insights";
import { DataTable } from "./chart";
import { formatChange, formatDate, formatInstant, formatNumber, formatSeconds } from "./format";
import { LinesChart, OccupancyChart, PeakDaysChart, SessionsChart, TrafficChart, WeekHoursChart, ZoneDwellChart } from "./report-charts";

export function hasCounts(report: InsightsReport): boolean {
  return report.totals.entries + report.totals.exits > 0 || report.zones.some((z) => z.entered > 0) || report.sessions.some((s) => s.points.length > 0);
}

export function ReportView({ report }: { report: InsightsReport }) {
  if (!hasCounts(report)) {
    return (
      <div className="rounded-xl border border-ink-700 bg-ink-900 p-6 text-center text-sm text-slate-300" data-testid="insights-empty">
        <p className="font-medium text-white">No counts in this period</p>
        <p className="mt-1">
          Draw a line or zone on a camera and watch it with local vision: its counts appear here.{" "}
          <Link to="/studio" className="text-brand-300 underline">
            Open the studio
          </Link>
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <Totals report={report} />
      <div className="grid gap-4 lg:grid-cols-2">
        <TrafficChart report={report} />
        {report.occupancy.curve.length > 0 ? <OccupancyChart report={report} /> : null}
        {report.occupancy.days.length > 0 ? <PeakDaysChart report={report} /> : null}
        <WeekHoursChart report={report} />
        {report.lines.length > 0 ? <LinesChart report={report} /> : null}
        {report.sessions.length > 0 ? <SessionsChart report={report} /> : null}
      </div>
      {report.zones.length > 0 ? <Zones report={report} /> : null}
    </div>
  );
}

function Totals({ report }: { report: InsightsReport }) {
  const { totals, occupancy } = report;
  const period = (from: string, to: string) => (from === to ? formatDate(from) : `${formatDate(from)} – ${formatDate(to)}`);
  return (
    <section aria-label="Totals" className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="insights-totals">
      <Figure label="Entries" value={totals.entries} previous={totals.previous.entries} lastYear={totals.lastYear?.entries ?? null} />
      <Figure label="Exits" value={totals.exits} previous={totals.previous.exits} lastYear={totals.lastYear?.exits ?? null} />
      <div className="rounded-xl border border-ink-700 bg-ink-900 p-3">
        <p className="text-xs text-slate-400">Peak occupancy</p>
        <p className="text-2xl font-semibold text-white tabular-nums" data-testid="peak-occupancy">
          {occupancy.peak === null ? "—" : formatNumber(occupancy.peak)}
        </p>
        <p className="text-xs text-slate-400">
          {occupancy.peakAt ? `at ${formatInstant(occupancy.peakAt, report.timeZone, occupancy.detail === "hour" ? "hour" : "minute")}` : ""}
          {report.capacity ? ` · capacity ${formatNumber(report.capacity)}` : ""}
        </p>
      </div>
      <div className="rounded-xl border border-ink-700 bg-ink-900 p-3 text-xs text-slate-400">
        <p>{period(report.from, report.to)}</p>
        <p className="mt-1">Previous: {period(totals.previous.from, totals.previous.to)}</p>
        {totals.lastYear ? <p className="mt-1">Last year: {period(totals.lastYear.from, totals.lastYear.to)}</p> : null}
        <p className="mt-1">Times in {report.timeZone}</p>
      </div>
    </section>
  );
}

function Figure({ label, value, previous, lastYear }: { label: string; value: number; previous: number; lastYear: number | null }) {
  // "+12 % vs previous period (1,000)"; with nothing then to compare with, just the figure.
  const against = (before: number, what: string) => {
    const change = formatChange(value, before);
    return change ? `${change} vs ${what} (${formatNumber(before)})` : `${formatNumber(before)} in the ${what}`;
  };
  return (
    <div className="rounded-xl border border-ink-700 bg-ink-900 p-3" data-testid={`total-${label.toLowerCase()}`}>
      <p className="text-xs text-slate-400">{label}</p>
      <p className="text-2xl font-semibold text-white tabular-nums">{formatNumber(value)}</p>
      <p className="text-xs text-slate-300">{against(previous, "previous period")}</p>
      {lastYear !== null ? <p className="text-xs text-slate-300">{against(lastYear, "same period last year")}</p> : null}
    </div>
  );
}

function Zones({ report }: { report: InsightsReport }) {
  return (
    <section aria-labelledby="zones-heading" className="space-y-3">
      <h2 id="zones-heading" className="text-base font-semibold text-white">
        Zones
      </h2>
      <div className="rounded-xl border border-ink-700 bg-ink-900 p-4">
        <DataTable
          table={{
            caption: "Zones: entered, exited, loitering and median time spent",
            columns: ["Zone", "Camera", "Entered", "Exited", "Loitering", "Median time spent"],
            rows: report.zones.map((z) => [
              z.name,
              z.cameraName,
              formatNumber(z.entered),
              formatNumber(z.exited),
              formatNumber(z.loitering),
              z.dwell.median === null ? "—" : formatSeconds(z.dwell.median),
            ]),
          }}
        />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {report.zones.map((zone) => (
          <ZoneDwellChart key={zone.id} zone={zone} />
        ))}
      </div>
    </section>
  );
}
