// The camera assistant's advice over the preview: "Analyzing your shot...", then an accordion of the
// sections (several may be open at once; native <details>), with Refresh and dismiss. It takes clicks
// (the picture area itself is click-through). While it waits, a progress bar and the seconds waited: its
// call may be waiting its turn on a busy shared key.
import { useEffect, useState } from "react";
import { adviceEntries } from "#app/studio/ai/assistant-advice";
import { useAi, useStore } from "../studio-context";

export function AssistantOverlay() {
  const { assistant } = useAi();
  const overlay = useStore(assistant.store, (s) => s.overlay);
  const recommendations = useStore(assistant.store, (s) => s.recommendations);
  if (overlay === "hidden") return null;
  const entries = overlay === "result" ? adviceEntries(recommendations) : [];
  return (
    <div
      className="pointer-events-auto absolute top-2 right-2 max-h-[calc(100%-1rem)] w-72 max-w-[calc(100%-1rem)] overflow-y-auto rounded-lg border border-ink-700 bg-ink-950/90 p-3 text-sm text-slate-100 shadow-lg"
      data-testid="assistant-overlay"
      role="region"
      aria-label="Camera assistant"
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="font-semibold">Camera Assistant</h3>
        <div className="flex gap-1">
          <button
            type="button"
            className="rounded px-2 py-0.5 text-xs text-slate-300 hover:bg-ink-800 disabled:opacity-50"
            disabled={overlay === "analyzing"}
            onClick={() => void assistant.analyze()}
          >
            Refresh
          </button>
          <button type="button" aria-label="Dismiss" className="rounded px-1.5 py-0.5 text-slate-400 hover:text-white" onClick={() => assistant.dismiss()}>
            ✕
          </button>
        </div>
      </div>
      {overlay === "analyzing" ? (
        <Waiting />
      ) : entries.length ? (
        <div className="space-y-1">
          {entries.map((entry) => (
            <details key={entry.section} className="rounded border border-ink-800 bg-ink-900/70" data-testid={`advice-${entry.section}`}>
              <summary className="cursor-pointer px-2 py-1.5">
                <span className="font-medium">{entry.label}:</span> {entry.tip}
              </summary>
              <p className="px-2 pb-2 text-xs text-slate-300">{entry.detail}</p>
            </details>
          ))}
        </div>
      ) : (
        <p className="text-slate-400">No recommendations for this shot.</p>
      )}
    </div>
  );
}

/** "Analyzing your shot..." with an indeterminate progress bar, and after a few seconds how long it has waited. */
function Waiting() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="space-y-2" data-testid="assistant-waiting">
      <p className="text-slate-300" aria-live="polite">
        Analyzing your shot...
      </p>
      <div role="progressbar" aria-label="Analyzing your shot" aria-busy="true" className="h-1 overflow-hidden rounded bg-ink-800">
        <div className="h-full w-1/3 animate-pulse rounded bg-brand-400" />
      </div>
      {seconds >= 3 ? <p className="text-xs text-slate-400">Still working — the AI key may be busy with other calls… {seconds} s</p> : null}
    </div>
  );
}
