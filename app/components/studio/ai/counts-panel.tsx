// The Counts panel: the selected camera's line crossings (in/out) and zone events (entered/exited/loitering) over the
// last hour, today and the last 24 hours, the last hour per minute as a small bar chart, and the CSV download. It
// reloads after the batches of events the studio posts for this camera (at most every 5 s), and every 30 s while the
// page is visible.
import { useEffect, useRef, useState } from "react";
import { errorDetail } from "#app/lib/api/errors";
import { localVisionApi } from "#app/lib/api/local-vision";
import { COUNT_WINDOWS, COUNT_WINDOW_LABELS, startOfLocalDay, summarizeCounts, type CountsSummary } from "#app/studio/local-vision/counts-summary";
import { useAi, useStore, useStudio } from "../studio-context";
import { Section } from "./detection-controls";

const REFRESH_MS = 30_000;
/** The shortest time between two reloads prompted by posted batches. */
const RELOAD_GAP_MS = 5000;

async function loadSummary(cameraId: string): Promise<CountsSummary> {
  const now = Date.now();
  const [counts, lines, zones] = await Promise.all([
    // The API's default span: the last 24 hours.
    localVisionApi.counts(cameraId),
    localVisionApi.lines(cameraId),
    localVisionApi.zones(cameraId),
  ]);
  return summarizeCounts(counts.rows, { lines, zones }, now, startOfLocalDay(now));
}

/** A tick every 30 s while the page is visible (and one when it becomes visible again). */
function useVisibleTick(): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const bump = () => document.visibilityState === "visible" && setTick((t) => t + 1);
    const timer = setInterval(bump, REFRESH_MS);
    document.addEventListener("visibilitychange", bump);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", bump);
    };
  }, []);
  return tick;
}

export function CountsPanel() {
  const studio = useStudio();
  const { localEvents } = useAi();
  const cameraId = useStore(studio.cameras.store, (s) => s.selectedCameraId);
  // Changes with every batch the server accepted for this camera (null after another camera's).
  const posted = useStore(localEvents.store, (s) => (s.lastCameraId === cameraId ? s.posted : null));
  const tick = useVisibleTick();
  const [version, setVersion] = useState(0);
  const lastLoad = useRef(0);
  const reload = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [loaded, setLoaded] = useState<{ cameraId: string; summary: CountsSummary } | null>(null);
  const [error, setError] = useState<string | null>(null);

  // A busy door posts a batch a second: reload at most every 5 s, after the batches that came meanwhile.
  useEffect(() => {
    if (posted === null || reload.current) return;
    reload.current = setTimeout(
      () => {
        reload.current = undefined;
        setVersion((v) => v + 1);
      },
      Math.max(0, lastLoad.current + RELOAD_GAP_MS - Date.now()),
    );
  }, [posted]);
  useEffect(() => () => clearTimeout(reload.current), []);

  useEffect(() => {
    if (!cameraId) return;
    let current = true;
    lastLoad.current = Date.now();
    loadSummary(cameraId).then(
      (summary) => {
        if (!current) return;
        setLoaded({ cameraId, summary });
        setError(null);
      },
      (failure: unknown) => current && setError(errorDetail(failure, "Could not load the counts")),
    );
    return () => {
      current = false;
    };
  }, [cameraId, version, tick]);

  const summary = loaded && loaded.cameraId === cameraId ? loaded.summary : null;
  return (
    <Section title="Counts" testId="counts-panel">
      {!cameraId ? <p className="text-xs text-slate-400">Select a camera to see its counts.</p> : null}
      {error ? <p className="text-xs text-red-300">{error}</p> : null}
      {cameraId && summary ? <CountsBody cameraId={cameraId} summary={summary} /> : null}
    </Section>
  );
}

function CountsBody({ cameraId, summary }: { cameraId: string; summary: CountsSummary }) {
  if (summary.lines.length === 0 && summary.zones.length === 0)
    return <p className="text-xs text-slate-400">No lines or zones on this camera yet: draw one on the preview to count what crosses or enters it.</p>;
  return (
    <div className="grid gap-3">
      <table className="w-full text-left text-xs text-slate-300" aria-label="Counts">
        <thead className="text-slate-500">
          <tr>
            <th scope="col" className="font-normal">
              Line or zone
            </th>
            {COUNT_WINDOWS.map((w) => (
              <th key={w} scope="col" className="font-normal">
                {COUNT_WINDOW_LABELS[w]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {summary.lines.map((line) => (
            <tr key={line.id} data-testid="counts-row" data-name={line.name}>
              <th scope="row" className="font-medium text-white">
                {line.name}
              </th>
              {COUNT_WINDOWS.map((w) => (
                <td key={w}>
                  {line.counts[w].in} in · {line.counts[w].out} out
                </td>
              ))}
            </tr>
          ))}
          {summary.zones.map((zone) => (
            <tr key={zone.id} data-testid="counts-row" data-name={zone.name}>
              <th scope="row" className="font-medium text-white">
                {zone.name}
              </th>
              {COUNT_WINDOWS.map((w) => (
                <td key={w}>
                  {zone.counts[w].entered} entered · {zone.counts[w].exited} exited
                  {zone.counts[w].loitering ? ` · ${zone.counts[w].loitering} loitering` : ""}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <PerMinuteChart perMinute={summary.perMinute} />
      <a href={localVisionApi.countsCsvUrl(cameraId)} download className="text-brand-300 text-xs underline">
        Download CSV
      </a>
    </div>
  );
}

/** The last hour's crossings and entries per minute: 60 bars, oldest on the left. */
function PerMinuteChart({ perMinute }: { perMinute: readonly number[] }) {
  const total = perMinute.reduce((sum, n) => sum + n, 0);
  const max = Math.max(1, ...perMinute);
  return (
    <figure className="grid gap-1">
      <svg viewBox="0 0 60 20" preserveAspectRatio="none" className="h-10 w-full rounded bg-slate-900" role="img" aria-label={`Last hour: ${total} crossings and entries`}>
        {perMinute.map((n, i) => (n > 0 ? <rect key={i} x={i + 0.1} y={20 - (n / max) * 20} width={0.8} height={(n / max) * 20} className="fill-brand-400" /> : null))}
      </svg>
      <figcaption className="text-[11px] text-slate-500">Per minute, last hour ({total} in total)</figcaption>
    </figure>
  );
}
