// The AI tab's "AI calls" panel: the Moondream calls each feature spent this hour and in the last 24 hours
// (refreshed after calls), next to what local detection spent (none) for the frames it analysed on this device.
import { useEffect } from "react";
import { featureCalls } from "#app/studio/ai/call-usage";
import { useAi, useStore } from "../studio-context";

export function AiCallsPanel() {
  const ai = useAi();
  const usage = useStore(ai.callUsage.store, (s) => s.usage);
  const frames = useStore(ai.localVision.store, (s) => s.frames);
  useEffect(() => {
    void ai.callUsage.refresh();
  }, [ai]);
  const rows = usage ? featureCalls(usage) : [];
  const cell = "py-0.5 text-right tabular-nums";
  return (
    <section className="space-y-2" aria-labelledby="ai-calls-heading" data-testid="ai-calls">
      <h3 id="ai-calls-heading" className="text-sm font-semibold text-white">
        AI calls
      </h3>
      {!usage ? (
        <p className="text-xs text-slate-400">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="text-xs text-slate-400">No Moondream calls in the last 24 hours</p>
      ) : (
        <table className="w-full text-xs text-slate-200" aria-labelledby="ai-calls-heading">
          <thead className="text-slate-400">
            <tr>
              <th scope="col" className="py-0.5 text-left font-normal">
                Moondream
              </th>
              <th scope="col" className="py-0.5 text-right font-normal">
                This hour
              </th>
              <th scope="col" className="py-0.5 text-right font-normal">
                Last 24 h
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.feature}>
                <th scope="row" className="py-0.5 text-left font-normal">
                  {row.label}
                </th>
                <td className={cell}>{row.thisHour}</td>
                <td className={cell}>{row.last24h}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="text-xs text-emerald-300" data-testid="local-detection-calls">
        Local detection: 0 calls · {frames} {frames === 1 ? "frame" : "frames"} analysed on this device
      </p>
    </section>
  );
}
