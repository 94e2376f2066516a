// One chart of the Insights page: ECharts in a focusable box labelled with a summary, the arrow keys moving the
// highlighted point (its tooltip shown, its figures said to screen readers), and a "Table" toggle that shows the same
// data as an HTML table.
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { CHART_BASE, echarts, type ChartOption } from "./echarts";

export interface ChartTable {
  caption: string;
  columns: string[];
  rows: (string | number)[][];
}

export function Chart({
  title,
  summary,
  option,
  table,
  points,
  height = 280,
  testId,
  describePoint,
}: {
  title: string;
  /** What the chart says in a sentence: the box's accessible name. */
  summary: string;
  option: ChartOption;
  table: ChartTable;
  /** How many points the arrow keys step through (those of the first series). */
  points: number;
  /** What point i says to a screen reader; default: the table's row i with its column names. */
  describePoint?: (index: number) => string;
  height?: number;
  testId?: string;
}) {
  const [showTable, setShowTable] = useState(false);
  return (
    <section className="min-w-0 rounded-xl border border-ink-700 bg-ink-900 p-4" data-testid={testId} aria-label={title}>
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-white">{title}</h3>
        <button
          type="button"
          aria-pressed={showTable}
          onClick={() => setShowTable((shown) => !shown)}
          className="rounded-md border border-ink-700 px-2 py-1 text-xs text-slate-300 hover:bg-ink-800 hover:text-white aria-pressed:bg-ink-700 aria-pressed:text-white"
        >
          Table
        </button>
      </div>
      {showTable ? (
        <DataTable table={table} />
      ) : (
        <ChartCanvas option={option} summary={summary} points={points} height={height} describePoint={describePoint ?? ((i) => describeRow(table, i))} />
      )}
    </section>
  );
}

/** "Door: In 7, Out 3": a table row with its column names. */
function describeRow(table: ChartTable, index: number): string {
  const row = table.rows[index];
  if (!row) return "";
  return `${row[0]}: ${row
    .slice(1)
    .map((cell, i) => `${table.columns[i + 1]} ${cell}`)
    .join(", ")}`;
}

function ChartCanvas({
  option,
  summary,
  points,
  height,
  describePoint,
}: {
  option: ChartOption;
  summary: string;
  points: number;
  height: number;
  describePoint: (index: number) => string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [said, setSaid] = useState("");
  const chart = useRef<ReturnType<typeof echarts.init> | null>(null);
  const cursor = useRef(-1);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const instance = echarts.init(element, null, { renderer: "svg" });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption({ ...CHART_BASE, ...option }, { notMerge: true });
    cursor.current = -1;
  }, [option]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const instance = chart.current;
    if (!instance || points === 0) return;
    const steps: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };
    if (event.key === "Escape") {
      instance.dispatchAction({ type: "hideTip" });
      instance.dispatchAction({ type: "downplay", seriesIndex: 0 });
      cursor.current = -1;
      setSaid("");
      return;
    }
    const step = steps[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const from = cursor.current < 0 ? (step > 0 ? -1 : points) : cursor.current;
    const next = Math.min(points - 1, Math.max(0, from + (Number.isFinite(step) ? step : step > 0 ? points : -points)));
    instance.dispatchAction({ type: "downplay", seriesIndex: 0 });
    instance.dispatchAction({ type: "highlight", seriesIndex: 0, dataIndex: next });
    instance.dispatchAction({ type: "showTip", seriesIndex: 0, dataIndex: next });
    cursor.current = next;
    setSaid(describePoint(next));
  };

  return (
    <>
      <div
        ref={box}
        role="img"
        tabIndex={0}
        aria-label={`${summary} Use the arrow keys to read each point, or the Table button for all of them.`}
        onKeyDown={onKeyDown}
        onBlur={() => chart.current?.dispatchAction({ type: "hideTip" })}
        style={{ height }}
        className="w-full rounded-md focus:outline-2 focus:outline-brand-400"
        data-testid="chart"
      />
      <p className="sr-only" aria-live="polite" data-testid="chart-point">
        {said}
      </p>
    </>
  );
}

export function DataTable({ table, children }: { table: ChartTable; children?: ReactNode }) {
  return (
    // Focusable and named: a scrolling box must be reachable by keyboard.
    <div className="max-h-96 overflow-auto" tabIndex={0} role="region" aria-label={`Table: ${table.caption}`}>
      <table className="w-full text-left text-sm text-slate-200">
        <caption className="sr-only">{table.caption}</caption>
        <thead className="sticky top-0 bg-ink-900 text-xs text-slate-400">
          <tr>
            {table.columns.map((column) => (
              <th key={column} scope="col" className="px-2 py-1.5 font-medium">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, i) => (
            <tr key={i} className="border-t border-ink-800">
              {row.map((cell, j) =>
                j === 0 ? (
                  <th key={j} scope="row" className="px-2 py-1 font-normal">
                    {cell}
                  </th>
                ) : (
                  <td key={j} className="px-2 py-1 tabular-nums">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {children}
    </div>
  );
}
