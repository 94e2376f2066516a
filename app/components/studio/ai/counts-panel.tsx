// The Counts panel: the selected camera's line crossings (in/out) and zone events (entered/exited/loitering) over the
// last hour, today and the last 24 hours, the last hour per minute as a small bar chart, and the CSV download. The
// figures are the counts controller's (counts-controller.ts): the stored ones plus what this tab counted not yet
// stored, for the lines and zones as they are now (a new, renamed or deleted one shows at once).
import { localVisionApi } from "#app/lib/api/local-vision";
import { COUNT_WINDOWS, COUNT_WINDOW_LABELS, type CountsSummary } from "#app/studio/local-vision/counts-summary";
import { useAi, useStore } from "../studio-context";
import { Section } from "./detection-controls";

export function CountsPanel() {
  const { counts } = useAi();
  const cameraId = useStore(counts.store, (s) => s.cameraId);
  const summary = useStore(counts.store, (s) => s.summary);
  const error = useStore(counts.store, (s) => s.error);
  return (
    <Section title="Counts" testId="counts-panel">
      {!cameraId ? <p className="text-xs text-slate-400">Select a camera to see its counts.</p> : null}
      {error ? <p className="text-xs text-red-300">{error}</p> : null}
      {cameraId && summary ? <CountsBody cameraId={cameraId} summary={summary} /> : null}
    </Section>
  );
}

/** Figures stacked one per line in a cell, so columns never run together on a narrow panel; read as "3 in · 1 out". */
function Figures({ parts }: { parts: string[] }) {
  return parts.map((part, i) => (
    <span key={part.replace(/\d+/g, "")}>
      {i > 0 ? <span className="sr-only"> · </span> : null}
      <span className="block whitespace-nowrap">{part}</span>
    </span>
  ));
}

const cell = "py-1 pr-3 align-top last:pr-0";

function CountsBody({ cameraId, summary }: { cameraId: string; summary: CountsSummary }) {
  if (summary.lines.length === 0 && summary.zones.length === 0)
    return <p className="text-xs text-slate-400">No lines or zones on this camera yet: draw one on the preview to count what crosses or enters it.</p>;
  return (
    <div className="grid gap-3">
      <table className="w-full text-left text-xs text-slate-300" aria-label="Counts">
        <thead className="text-slate-500">
          <tr>
            <th scope="col" className={`font-normal ${cell}`}>
              Line or zone
            </th>
            {COUNT_WINDOWS.map((w) => (
              <th key={w} scope="col" className={`font-normal ${cell}`}>
                {COUNT_WINDOW_LABELS[w]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {summary.lines.map((line) => (
            <tr key={line.id} data-testid="counts-row" data-name={line.name}>
              <th scope="row" className={`font-medium wrap-anywhere text-white ${cell}`}>
                {line.name}
              </th>
              {COUNT_WINDOWS.map((w) => (
                <td key={w} className={cell}>
                  <Figures parts={[`${line.counts[w].in} in`, `${line.counts[w].out} out`]} />
                </td>
              ))}
            </tr>
          ))}
          {summary.zones.map((zone) => (
            <tr key={zone.id} data-testid="counts-row" data-name={zone.name}>
              <th scope="row" className={`font-medium wrap-anywhere text-white ${cell}`}>
                {zone.name}
              </th>
              {COUNT_WINDOWS.map((w) => (
                <td key={w} className={cell}>
                  <Figures
                    parts={[`${zone.counts[w].entered} entered`, `${zone.counts[w].exited} exited`, ...(zone.counts[w].loitering ? [`${zone.counts[w].loitering} loitering`] : [])]}
                  />
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
