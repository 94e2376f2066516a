// ECharts as the Insights page uses it: only the charts and components it draws, and the SVG renderer (sharp text,
// small, and what the server renders for the PDF too). Imported from the Insights route only, so no other page's chunk
// carries it. No AriaComponent: it would replace the chart box's own label (./chart.tsx).
import { BarChart, HeatmapChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, MarkLineComponent, MarkPointComponent, TooltipComponent, VisualMapComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";

echarts.use([BarChart, LineChart, HeatmapChart, GridComponent, TooltipComponent, LegendComponent, VisualMapComponent, MarkLineComponent, MarkPointComponent, SVGRenderer]);

export { echarts };
export type ChartOption = echarts.EChartsCoreOption;

/** The page's dark theme as chart defaults: text, axes and split lines, tooltip. */
export const CHART_BASE: ChartOption = {
  backgroundColor: "transparent",
  // The page's font by name: ECharts measures text with it to lay out labels ("inherit" would measure another).
  textStyle: { color: "#cbd5e1", fontFamily: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
  color: ["#60a5fa", "#f59e0b", "#34d399", "#f472b6", "#a78bfa", "#f87171"],
  grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
  legend: { top: 0, textStyle: { color: "#cbd5e1" } },
  tooltip: { trigger: "axis", backgroundColor: "#111827", borderColor: "#334155", textStyle: { color: "#f1f5f9" } },
  animation: false,
};

/** An axis in the page's colours; labels that would overlap are left out. */
export const AXIS = { axisLine: { lineStyle: { color: "#475569" } }, splitLine: { lineStyle: { color: "#1e293b" } }, axisLabel: { hideOverlap: true } };
