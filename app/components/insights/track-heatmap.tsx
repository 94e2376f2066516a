// Where people go (issue 31): the camera's heat grid over a period (GET /api/cameras/{id}/heatmap) drawn by ECharts
// as a heatmap over the camera's picture, "Walked" (passes into each cell) or "Stayed" (time spent in it), with a
// table of the busiest cells for screen readers and keyboards, and an empty state. The picture is the camera's saved
// one (a static photo's full picture, else its thumbnail), or for an IP camera without one its snapshot now.
import { HeatmapChart } from "echarts/charts";
import { AriaComponent, GridComponent, TooltipComponent, VisualMapContinuousComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useEffect, useId, useRef, useState } from "react";
import { camerasApi } from "#app/lib/api/cameras";
import { errorDetail } from "#app/lib/api/errors";
import { localVisionApi } from "#app/lib/api/local-vision";
import type { Heatmap } from "#app/schemas/local-vision";
import { chartOption, formatValue, isEmpty, MODE_LABELS, topCells, type HeatMode } from "./track-heatmap-data";

echarts.use([HeatmapChart, GridComponent, TooltipComponent, VisualMapContinuousComponent, AriaComponent, CanvasRenderer]);

export interface TrackHeatmapProps {
  cameraId: string;
  /** The period, ISO times: `from` inclusive, `to` exclusive. */
  from: string;
  to: string;
  /** The heading, e.g. "Where people go: Lobby". */
  title: string;
  /** The heading's level where the page places the heatmap (2 by default), so headings go in order. */
  headingLevel?: 2 | 3 | 4;
}

type Loaded = { state: "loading" } | { state: "failed"; message: string } | { state: "ready"; map: Heatmap };

/** The camera's picture as an address for an <img>, and the function that lets it go (an object URL is revoked). */
async function cameraPicture(cameraId: string, signal: AbortSignal): Promise<{ url: string; release(): void } | null> {
  const camera = await camerasApi.get(cameraId);
  const saved = camera.imageUrl ?? camera.thumbnailUrl;
  if (saved) return { url: saved, release: () => {} };
  if (camera.source !== "ip" || camera.status !== "online") return null;
  const blob = await camerasApi.snapshot(cameraId);
  if (signal.aborted) return null;
  const url = URL.createObjectURL(blob);
  return { url, release: () => URL.revokeObjectURL(url) };
}

export function TrackHeatmap({ cameraId, from, to, title, headingLevel = 2 }: TrackHeatmapProps) {
  const Heading = `h${headingLevel}` as const;
  const headingId = useId();
  const [mode, setMode] = useState<HeatMode>("walk");
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [picture, setPicture] = useState<string | null>(null);
  const [aspect, setAspect] = useState(16 / 9);
  const chartElement = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    let current = true;
    setLoaded({ state: "loading" });
    localVisionApi
      .heatmap(cameraId, { from, to })
      .then((map) => current && setLoaded({ state: "ready", map }))
      .catch((error: unknown) => current && setLoaded({ state: "failed", message: errorDetail(error, "The heatmap could not be loaded.") }));
    return () => {
      current = false;
    };
  }, [cameraId, from, to]);

  useEffect(() => {
    const controller = new AbortController();
    let release = () => {};
    cameraPicture(cameraId, controller.signal)
      .then((found) => {
        if (controller.signal.aborted) return found?.release();
        release = found?.release ?? release;
        setPicture(found?.url ?? null);
      })
      // Without the picture the cells still say where: they are drawn on a dark ground.
      .catch(() => setPicture(null));
    return () => {
      controller.abort();
      release();
    };
  }, [cameraId]);

  const map = loaded.state === "ready" && !isEmpty(loaded.map) ? loaded.map : null;
  const description = `${title}: where people ${mode === "walk" ? "walked" : "stayed"} over the camera's picture; the table view lists the busiest cells.`;

  // The chart lives while there is something to draw (its option follows below); it follows its box's size.
  const drawn = map !== null;
  useEffect(() => {
    const element = chartElement.current;
    if (!drawn || !element) return;
    const instance = echarts.init(element, null, { renderer: "canvas" });
    chart.current = instance;
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(element);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [drawn]);

  useEffect(() => {
    if (map && chart.current) chart.current.setOption(chartOption(map, mode, description), { notMerge: true });
  }, [map, mode, description]);

  const top = map ? topCells(map, mode) : [];
  return (
    <section aria-labelledby={headingId} className="grid gap-3" data-testid="track-heatmap">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading id={headingId} className="text-sm font-medium text-white">
          {title}
        </Heading>
        <fieldset className="flex gap-3 text-sm text-slate-300">
          <legend className="sr-only">Show where people</legend>
          {(["walk", "stay"] as const).map((value) => (
            <label key={value} className="flex items-center gap-1.5">
              <input type="radio" name={`${headingId}-mode`} value={value} checked={mode === value} onChange={() => setMode(value)} className="accent-brand-500" />
              {MODE_LABELS[value]}
            </label>
          ))}
        </fieldset>
      </div>
      {loaded.state === "loading" ? (
        <p className="text-sm text-slate-400" role="status">
          Loading…
        </p>
      ) : loaded.state === "failed" ? (
        <p className="text-sm text-red-300" role="alert">
          {loaded.message}
        </p>
      ) : !map ? (
        <p className="rounded-md border border-ink-700 px-3 py-6 text-center text-sm text-slate-400">No tracks in this period</p>
      ) : (
        <>
          <div className="relative w-full overflow-hidden rounded-md bg-ink-950" style={{ aspectRatio: aspect }}>
            {picture ? (
              <img
                src={picture}
                alt=""
                className="absolute inset-0 h-full w-full"
                onLoad={(event) => {
                  const { naturalWidth, naturalHeight } = event.currentTarget;
                  if (naturalWidth > 0 && naturalHeight > 0) setAspect(naturalWidth / naturalHeight);
                }}
                onError={() => setPicture(null)}
              />
            ) : null}
            <div ref={chartElement} className="absolute inset-0" />
          </div>
          <details className="text-sm text-slate-300">
            <summary className="cursor-pointer">Table view</summary>
            <table className="mt-2 w-full text-left">
              <caption className="sr-only">
                {title}: the busiest cells, {MODE_LABELS[mode].toLowerCase()} (rows from the top, columns from the left, of {map.rows} × {map.cols})
              </caption>
              <thead>
                <tr className="text-slate-400">
                  <th scope="col" className="font-normal">
                    Row / column
                  </th>
                  <th scope="col" className="font-normal">
                    {MODE_LABELS[mode]}
                  </th>
                </tr>
              </thead>
              <tbody>
                {top.map((cell) => (
                  <tr key={`${cell.row}-${cell.column}`}>
                    <td>
                      {cell.row} / {cell.column}
                    </td>
                    <td>{formatValue(mode, cell.value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </section>
  );
}
