// A report's charts drawn by ECharts on the server (SSR to SVG, no DOM): the PDF embeds them (svg-to-pdfkit) and the
// shared report page inlines them, so neither needs a browser to draw a chart.
import * as echarts from "echarts";
import type { InsightsReport } from "#app/schemas/insights";
import { formatLocal, localTime } from "./tables";

export interface ChartSvg {
  title: string;
  /** What the chart shows, for a screen reader (the page also has the tables). */
  description: string;
  svg: string;
}

const COLORS = { entries: "#2563eb", exits: "#f59e0b", occupancy: "#059669", capacity: "#dc2626" };
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

function render(option: echarts.EChartsCoreOption, width: number, height: number): string {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width, height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: "Helvetica, Arial, sans-serif" }, ...option });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** The step's label: the date alone by day and longer, the time too below that. */
function stepLabel(iso: string, report: InsightsReport): string {
  const text = formatLocal(localTime(iso, report.timeZone));
  return report.resolution === "minute" || report.resolution === "hour" ? text.slice(5) : text.slice(0, 10);
}

export function reportCharts(report: InsightsReport, width = 760): ChartSvg[] {
  const grid = { left: 48, right: 16, top: 36, bottom: 40 };
  const charts: ChartSvg[] = [];
  charts.push({
    title: "Entries and exits",
    description: `Entries and exits by ${report.resolution}, ${report.from} to ${report.to}: ${report.totals.entries} entries, ${report.totals.exits} exits.`,
    svg: render(
      {
        color: [COLORS.entries, COLORS.exits],
        legend: { top: 4, data: ["Entries", "Exits"] },
        grid,
        xAxis: { type: "category", data: report.traffic.map((step) => stepLabel(step.start, report)) },
        yAxis: { type: "value", minInterval: 1 },
        series: [
          { name: "Entries", type: "bar", data: report.traffic.map((step) => step.entries) },
          { name: "Exits", type: "bar", data: report.traffic.map((step) => step.exits) },
        ],
      },
      width,
      260,
    ),
  });

  const capacityLine =
    report.capacity === null ? undefined : { silent: true, symbol: "none", lineStyle: { color: COLORS.capacity }, data: [{ yAxis: report.capacity, name: "Capacity" }] };
  const curve = report.occupancy.curve;
  charts.push(
    curve.length > 0
      ? {
          title: "Occupancy",
          description: `People in through the period; the peak was ${report.occupancy.peak ?? 0}${report.capacity === null ? "" : ` against a capacity of ${report.capacity}`}.`,
          svg: render(
            {
              color: [COLORS.occupancy],
              grid,
              xAxis: { type: "category", data: curve.map((point) => formatLocal(localTime(point.at, report.timeZone)).slice(5)) },
              yAxis: { type: "value", minInterval: 1 },
              series: [
                {
                  name: "Occupancy",
                  type: "line",
                  step: "end",
                  showSymbol: false,
                  areaStyle: { opacity: 0.15 },
                  data: curve.map((point) => point.occupancy),
                  markLine: capacityLine,
                },
              ],
            },
            width,
            220,
          ),
        }
      : {
          title: "Peak occupancy by day",
          description: `The most people in at once each day; the peak was ${report.occupancy.peak ?? 0}.`,
          svg: render(
            {
              color: [COLORS.occupancy],
              grid,
              xAxis: { type: "category", data: report.occupancy.days.map((day) => day.date) },
              yAxis: { type: "value", minInterval: 1 },
              series: [{ name: "Peak occupancy", type: "bar", data: report.occupancy.days.map((day) => day.peak), markLine: capacityLine }],
            },
            width,
            220,
          ),
        },
  );

  const cells = report.weekHours.flatMap((hours, day) => hours.map((entries, hour) => [hour, day, entries]));
  charts.push({
    title: "Entries by weekday and hour",
    description: "Entries by hour of day (across) and weekday (down), darker is busier.",
    svg: render(
      {
        grid: { left: 48, right: 16, top: 16, bottom: 56 },
        xAxis: { type: "category", data: Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, "0")), splitArea: { show: true } },
        yAxis: { type: "category", data: WEEKDAYS, inverse: true, splitArea: { show: true } },
        visualMap: {
          min: 0,
          max: Math.max(1, ...cells.map((cell) => cell[2]!)),
          calculable: false,
          orient: "horizontal",
          left: "center",
          bottom: 0,
          itemHeight: 120,
          inRange: { color: ["#eff6ff", "#1d4ed8"] },
        },
        series: [{ name: "Entries", type: "heatmap", data: cells }],
      },
      width,
      240,
    ),
  });
  return charts;
}
