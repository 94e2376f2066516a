// What the track heatmap shows, apart from drawing it: the cells with a value, the busiest ones for the table view,
// values in words, and the ECharts option (a heatmap series on a grid that fills the picture exactly).
import type { Heatmap } from "#app/schemas/local-vision";

export type HeatMode = "walk" | "stay";

export interface HeatCell {
  /** 1-based, from the top. */
  row: number;
  /** 1-based, from the left. */
  column: number;
  value: number;
}

export const MODE_LABELS: Record<HeatMode, string> = { walk: "Walked", stay: "Stayed" };

/** Every cell with something in it, in grid order. */
export function heatCells(map: Heatmap, mode: HeatMode): HeatCell[] {
  const values = map[mode];
  const cells: HeatCell[] = [];
  values.forEach((value, index) => {
    if (value > 0) cells.push({ row: Math.floor(index / map.cols) + 1, column: (index % map.cols) + 1, value });
  });
  return cells;
}

/** The `count` busiest cells, busiest first (ties: top to bottom, left to right). */
export function topCells(map: Heatmap, mode: HeatMode, count = 10): HeatCell[] {
  return heatCells(map, mode)
    .sort((a, b) => b.value - a.value || a.row - b.row || a.column - b.column)
    .slice(0, count);
}

export const isEmpty = (map: Heatmap): boolean => map.walk.every((v) => v === 0) && map.stay.every((v) => v === 0);

/** "3 passes", "1 pass"; "42 s", "12 min", "2 h 5 min": numbers in the reader's locale. */
export function formatValue(mode: HeatMode, value: number, locale?: string): string {
  const number = (n: number, digits = 0) => n.toLocaleString(locale, { maximumFractionDigits: digits });
  if (mode === "walk") return `${number(value)} ${value === 1 ? "pass" : "passes"}`;
  if (value < 60) return `${number(value, 1)} s`;
  if (value < 3600) return `${number(Math.round(value / 60))} min`;
  const hours = Math.floor(value / 3600);
  const minutes = Math.round((value - hours * 3600) / 60);
  return minutes > 0 ? `${number(hours)} h ${minutes} min` : `${number(hours)} h`;
}

/** Transparent where nobody went, through amber to red where most did: the picture shows through the quiet cells. */
const COLOURS = ["rgba(250, 204, 21, 0.15)", "rgba(250, 204, 21, 0.55)", "rgba(249, 115, 22, 0.7)", "rgba(220, 38, 38, 0.85)"];

/** The ECharts option: one heatmap series on category axes spanning the chart (no margins: cell = picture cell). */
export function chartOption(map: Heatmap, mode: HeatMode, description: string, locale?: string) {
  const cells = heatCells(map, mode);
  const max = cells.reduce((m, c) => Math.max(m, c.value), 0);
  const range = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));
  return {
    animation: false,
    aria: { enabled: true, label: { description } },
    grid: { left: 0, right: 0, top: 0, bottom: 0 },
    xAxis: { type: "category" as const, data: range(map.cols), show: false },
    yAxis: { type: "category" as const, data: range(map.rows), show: false, inverse: true },
    tooltip: {
      formatter: (params: { value: [number, number, number] }) => `Row ${params.value[1] + 1}, column ${params.value[0] + 1}: ${formatValue(mode, params.value[2], locale)}`,
    },
    visualMap: {
      type: "continuous" as const,
      min: 0,
      max: Math.max(max, mode === "walk" ? 1 : 0.1),
      orient: "horizontal" as const,
      right: 8,
      bottom: 8,
      itemWidth: 10,
      itemHeight: 90,
      text: [formatValue(mode, max, locale), "0"],
      textStyle: { color: "#fff" },
      backgroundColor: "rgba(2, 6, 23, 0.6)",
      padding: 6,
      inRange: { color: COLOURS },
    },
    series: [
      {
        type: "heatmap" as const,
        name: MODE_LABELS[mode],
        data: cells.map((c) => [c.column - 1, c.row - 1, c.value]),
        emphasis: { itemStyle: { borderColor: "#fff", borderWidth: 1 } },
      },
    ],
  };
}
