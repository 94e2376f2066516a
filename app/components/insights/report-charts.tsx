// The report's charts, each with its table: traffic over time, occupancy through the period, peak per day, the week's
// busy hours, lines in and out, dwell per zone, people-count sessions. Every time in the report's time zone.
import { useMemo } from "react";
import type { InsightsReport } from "../../schemas/insights";
import { Chart } from "./chart";
import { AXIS, type ChartOption } from "./echarts";
import { formatDate, formatInstant, formatNumber, formatSeconds, weekdayNames } from "./format";

const valueAxis = { type: "value", minInterval: 1, ...AXIS };

export function TrafficChart({ report }: { report: InsightsReport }) {
  const labels = report.traffic.map((step) => formatInstant(step.start, report.timeZone, report.resolution));
  const option = useMemo<ChartOption>(
    () => ({
      xAxis: { type: "category", data: labels, ...AXIS },
      yAxis: valueAxis,
      series: [
        { name: "Entries", type: "bar", data: report.traffic.map((s) => s.entries) },
        { name: "Exits", type: "bar", data: report.traffic.map((s) => s.exits) },
      ],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- labels follow the report
    [report],
  );
  const busiest = report.traffic.reduce<(typeof report.traffic)[number] | null>((best, s) => (best === null || s.entries > best.entries ? s : best), null);
  return (
    <Chart
      title="Entries and exits"
      testId="chart-traffic"
      option={option}
      points={labels.length}
      summary={`Entries and exits by ${report.resolution}: ${formatNumber(report.totals.entries)} entries and ${formatNumber(report.totals.exits)} exits${
        busiest && busiest.entries > 0 ? `, busiest ${formatInstant(busiest.start, report.timeZone, report.resolution)} with ${formatNumber(busiest.entries)} entries` : ""
      }.`}
      table={{
        caption: "Entries and exits over time",
        columns: ["Time", "Entries", "Exits"],
        rows: report.traffic.map((s, i) => [labels[i]!, formatNumber(s.entries), formatNumber(s.exits)]),
      }}
    />
  );
}

export function OccupancyChart({ report }: { report: InsightsReport }) {
  const { curve, peak, peakAt } = report.occupancy;
  const labels = curve.map((point) => formatInstant(point.at, report.timeZone, "minute"));
  const option = useMemo<ChartOption>(
    () => ({
      xAxis: { type: "category", data: labels, boundaryGap: false, ...AXIS },
      yAxis: { ...valueAxis, max: report.capacity ? (value: { max: number }) => Math.max(value.max, report.capacity!) : undefined },
      series: [
        {
          name: "People in",
          type: "line",
          step: "end",
          showSymbol: false,
          areaStyle: { opacity: 0.15 },
          data: curve.map((point) => point.occupancy),
          markPoint: peak ? { data: [{ type: "max", name: "Peak" }], label: { color: "#0b0f17" } } : undefined,
          markLine: report.capacity
            ? {
                symbol: "none",
                lineStyle: { color: "#f87171", type: "dashed" },
                label: { formatter: `Capacity ${formatNumber(report.capacity)}`, color: "#fca5a5", position: "insideEndTop" },
                data: [{ yAxis: report.capacity }],
              }
            : undefined,
        },
      ],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- labels follow the report
    [report],
  );
  return (
    <Chart
      title="Occupancy"
      testId="chart-occupancy"
      option={option}
      points={labels.length}
      summary={`People in through the period${peak !== null && peakAt ? `: peak ${formatNumber(peak)} at ${formatInstant(peakAt, report.timeZone, "hour")}` : ""}${
        report.capacity ? ` against a capacity of ${formatNumber(report.capacity)}` : ""
      }.`}
      table={{ caption: "People in through the period", columns: ["Time", "People in"], rows: curve.map((point, i) => [labels[i]!, formatNumber(point.occupancy)]) }}
    />
  );
}

export function PeakDaysChart({ report }: { report: InsightsReport }) {
  const days = report.occupancy.days;
  const labels = days.map((day) => formatDate(day.date, { weekday: "short", day: "numeric", month: "short" }));
  const option = useMemo<ChartOption>(
    () => ({
      xAxis: { type: "category", data: labels, ...AXIS },
      yAxis: valueAxis,
      series: [
        {
          name: "Peak occupancy",
          type: "bar",
          data: days.map((day) => day.peak),
          markLine: report.capacity ? { symbol: "none", lineStyle: { color: "#f87171", type: "dashed" }, data: [{ yAxis: report.capacity, name: "Capacity" }] } : undefined,
        },
      ],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- labels follow the report
    [report],
  );
  const best = days.reduce<(typeof days)[number] | null>((top, day) => (top === null || day.peak > top.peak ? day : top), null);
  return (
    <Chart
      title="Peak occupancy per day"
      testId="chart-peak-days"
      option={option}
      points={labels.length}
      summary={`Peak occupancy on each of ${days.length} days${best ? `; highest ${formatNumber(best.peak)} on ${formatDate(best.date)}` : ""}.`}
      table={{
        caption: "Peak occupancy per day",
        columns: ["Day", "Entries", "Exits", "Peak", "Peak at"],
        rows: days.map((day, i) => [
          labels[i]!,
          formatNumber(day.entries),
          formatNumber(day.exits),
          formatNumber(day.peak),
          day.peakAt ? formatInstant(day.peakAt, report.timeZone, "time") : "—",
        ]),
      }}
    />
  );
}

export function WeekHoursChart({ report }: { report: InsightsReport }) {
  const days = weekdayNames();
  const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0"));
  const cells = report.weekHours.flatMap((row, day) => row.map((value, hour) => [hour, day, value] as [number, number, number]));
  const max = Math.max(1, ...cells.map((cell) => cell[2]));
  const option = useMemo<ChartOption>(
    () => ({
      tooltip: { trigger: "item", backgroundColor: "#111827", borderColor: "#334155", textStyle: { color: "#f1f5f9" } },
      grid: { left: 8, right: 16, top: 8, bottom: 56, containLabel: true },
      xAxis: { type: "category", data: hours, splitArea: { show: true }, ...AXIS },
      yAxis: { type: "category", data: days, inverse: true, ...AXIS },
      visualMap: {
        min: 0,
        max,
        calculable: false,
        orient: "horizontal",
        left: "center",
        bottom: 0,
        textStyle: { color: "#cbd5e1" },
        inRange: { color: ["#0f172a", "#1d4ed8", "#f59e0b"] },
      },
      series: [{ name: "Entries", type: "heatmap", data: cells, emphasis: { itemStyle: { borderColor: "#fff", borderWidth: 1 } } }],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- cells follow the report
    [report],
  );
  const busiest = cells.reduce((top, cell) => (cell[2] > top[2] ? cell : top), [0, 0, 0]);
  return (
    <Chart
      title="Busy hours by weekday"
      testId="chart-week-hours"
      option={option}
      points={cells.length}
      height={300}
      describePoint={(i) => `${weekdayNames("long")[cells[i]![1]]} ${hours[cells[i]![0]]}:00: ${formatNumber(cells[i]![2])} entries`}
      summary={`Entries by hour of day and weekday${busiest[2] > 0 ? `; busiest ${weekdayNames("long")[busiest[1]]} ${hours[busiest[0]]}:00 with ${formatNumber(busiest[2])}` : ""}.`}
      table={{
        caption: "Entries by weekday and hour of day",
        columns: ["Weekday", ...hours],
        rows: report.weekHours.map((row, day) => [days[day]!, ...row.map((v) => formatNumber(v))]),
      }}
    />
  );
}

export function LinesChart({ report }: { report: InsightsReport }) {
  const labels = report.lines.map((line) => `${line.name} (${line.cameraName})`);
  const option = useMemo<ChartOption>(
    () => ({
      xAxis: { type: "category", data: labels, ...AXIS },
      yAxis: valueAxis,
      series: [
        { name: "In", type: "bar", data: report.lines.map((line) => line.in) },
        { name: "Out", type: "bar", data: report.lines.map((line) => line.out) },
      ],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- labels follow the report
    [report],
  );
  return (
    <Chart
      title="Lines in and out"
      testId="chart-lines"
      option={option}
      points={labels.length}
      summary={`In and out for ${report.lines.length} ${report.lines.length === 1 ? "line" : "lines"}.`}
      table={{ caption: "Lines in and out", columns: ["Line", "In", "Out"], rows: report.lines.map((line, i) => [labels[i]!, formatNumber(line.in), formatNumber(line.out)]) }}
    />
  );
}

export function ZoneDwellChart({ zone }: { zone: InsightsReport["zones"][number] }) {
  const labels = zone.dwell.buckets.map((bucket, i, all) => (bucket.upTo === null ? `over ${formatSeconds(all[i - 1]?.upTo ?? 0)}` : `up to ${formatSeconds(bucket.upTo)}`));
  const option = useMemo<ChartOption>(
    () => ({ xAxis: { type: "category", data: labels, ...AXIS }, yAxis: valueAxis, series: [{ name: "People", type: "bar", data: zone.dwell.buckets.map((b) => b.count) }] }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- labels follow the zone
    [zone],
  );
  const median = zone.dwell.median === null ? "no one left it" : `median ${formatSeconds(zone.dwell.median)}`;
  return (
    <Chart
      title={`Time spent in ${zone.name} (${zone.cameraName})`}
      testId="chart-dwell"
      option={option}
      points={labels.length}
      height={220}
      summary={`Time spent in ${zone.name}: ${median}; ${formatNumber(zone.loitering)} loitering.`}
      table={{ caption: `Time spent in ${zone.name}`, columns: ["Time spent", "People"], rows: zone.dwell.buckets.map((b, i) => [labels[i]!, formatNumber(b.count)]) }}
    />
  );
}

export function SessionsChart({ report }: { report: InsightsReport }) {
  const first = report.traffic[0]?.start;
  const option = useMemo<ChartOption>(
    () => ({
      xAxis: {
        type: "time",
        min: first,
        ...AXIS,
        axisLabel: { hideOverlap: true, formatter: (value: number) => formatInstant(value, report.timeZone, report.from === report.to ? "time" : "minute") },
      },
      yAxis: valueAxis,
      tooltip: {
        trigger: "axis",
        backgroundColor: "#111827",
        borderColor: "#334155",
        textStyle: { color: "#f1f5f9" },
        axisPointer: { label: { formatter: ({ value }: { value: number }) => formatInstant(value, report.timeZone, "minute") } },
      },
      series: report.sessions.map((session) => ({
        name: session.title,
        type: "line",
        showSymbol: session.points.length < 60,
        data: session.points.map((point) => [point.at, point.count]),
      })),
    }),
    [report, first],
  );
  return (
    <Chart
      title="People-count sessions"
      testId="chart-sessions"
      option={option}
      points={report.sessions[0]?.points.length ?? 0}
      summary={`${report.sessions.length} people-count ${report.sessions.length === 1 ? "session" : "sessions"}: ${report.sessions
        .map((s) => `${s.title}, ${s.max === null ? "no counts" : `up to ${formatNumber(s.max)}`}`)
        .join("; ")}.`}
      table={{
        caption: "People-count sessions",
        columns: ["Session", "Time", "Count"],
        rows: report.sessions.flatMap((s) => s.points.map((p) => [s.title, formatInstant(p.at, report.timeZone, "minute"), formatNumber(p.count)])),
      }}
    />
  );
}
