// A site's attendance: each occurrence of its services and opening hours with entries, peak and when people arrived
// (entries per 15 minutes), and the trend across occurrences.
import { useId, useMemo, useState } from "react";
import type { Attendance } from "../../schemas/insights";
import { Chart } from "./chart";
import { SelectField } from "./controls";
import { AXIS, type ChartOption } from "./echarts";
import { formatDate, formatInstant, formatNumber } from "./format";

export function AttendanceView({ attendance }: { attendance: Attendance }) {
  const id = useId();
  const { occurrences, timeZone } = attendance;
  const [chosen, setChosen] = useState(occurrences.length - 1);
  const labels = occurrences.map((o) => `${o.name}, ${formatDate(o.date, { day: "numeric", month: "short", year: "numeric" })}`);
  const trend = useMemo<ChartOption>(
    () => ({
      xAxis: { type: "category", data: labels, ...AXIS },
      yAxis: { type: "value", minInterval: 1, ...AXIS },
      series: [
        { name: "Entries", type: "bar", data: occurrences.map((o) => o.entries) },
        { name: "Peak", type: "line", data: occurrences.map((o) => o.peak) },
      ],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- labels follow the attendance
    [attendance],
  );
  const occurrence = occurrences[Math.min(chosen, occurrences.length - 1)];
  const arrivalLabels = occurrence?.arrivals.map((a) => formatInstant(a.start, timeZone, "time")) ?? [];
  const arrivals = useMemo<ChartOption>(
    () => ({
      xAxis: { type: "category", data: arrivalLabels, ...AXIS },
      yAxis: { type: "value", minInterval: 1, ...AXIS },
      series: [{ name: "Arrivals", type: "bar", data: occurrence?.arrivals.map((a) => a.entries) ?? [] }],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- labels follow the occurrence
    [occurrence],
  );

  if (occurrences.length === 0) {
    return (
      <p className="rounded-xl border border-ink-700 bg-ink-900 p-4 text-sm text-slate-300" data-testid="attendance-empty">
        No occurrences between {formatDate(attendance.from)} and {formatDate(attendance.to)} yet. Add a service or opening hours above.
      </p>
    );
  }
  const best = occurrences.reduce((top, o) => (o.entries > top.entries ? o : top));
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="attendance">
      <Chart
        title="Entries and peak per occurrence"
        testId="chart-attendance"
        option={trend}
        points={labels.length}
        summary={`Entries and peak for ${occurrences.length} occurrences from ${formatDate(attendance.from)} to ${formatDate(attendance.to)}; most ${formatNumber(best.entries)} at ${best.name} on ${formatDate(best.date)}.`}
        table={{
          caption: "Attendance per occurrence",
          columns: ["Occurrence", "Entries", "Exits", "Peak", "Peak at"],
          rows: occurrences.map((o, i) => [
            labels[i]!,
            formatNumber(o.entries),
            formatNumber(o.exits),
            formatNumber(o.peak),
            o.peakAt ? formatInstant(o.peakAt, timeZone, "time") : "—",
          ]),
        }}
      />
      <div className="space-y-2">
        <SelectField id={`${id}-occurrence`} label="Arrivals at" value={String(chosen)} onChange={(v) => setChosen(Number(v))}>
          {labels.map((label, i) => (
            <option key={i} value={i}>
              {label}
            </option>
          ))}
        </SelectField>
        {occurrence ? (
          <Chart
            title={`When people arrived: ${labels[chosen] ?? ""}`}
            testId="chart-arrivals"
            option={arrivals}
            points={arrivalLabels.length}
            summary={`Entries per 15 minutes at ${occurrence.name} on ${formatDate(occurrence.date)}: ${formatNumber(occurrence.entries)} in all, peak ${formatNumber(occurrence.peak)}.`}
            table={{ caption: "Entries per 15 minutes", columns: ["From", "Entries"], rows: occurrence.arrivals.map((a, i) => [arrivalLabels[i]!, formatNumber(a.entries)]) }}
          />
        ) : null}
      </div>
    </div>
  );
}
