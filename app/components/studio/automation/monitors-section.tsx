// The Automate tab's monitors: analysis the server runs on an IP camera with no browser open. Lists each
// monitor's camera, kind, state, last run, last result and error with Pause / Resume / Delete, refreshed
// while the tab is open, and the form that starts one.
import { useEffect } from "react";
import { MONITOR_KIND_LABELS, type Monitor } from "#app/schemas/monitors";
import { Button } from "../../ui/button";
import { useStore, useStudio } from "../studio-context";
import { MonitorForm } from "./monitor-form";
import { STATE_LABELS, describeResult, describeSettings, relativeTime } from "./monitor-text";

const STATE_CLASSES: Record<Monitor["state"], string> = {
  running: "bg-emerald-900 text-emerald-200",
  paused: "bg-ink-700 text-slate-200",
  stopped: "bg-amber-900 text-amber-200",
  error: "bg-red-900 text-red-200",
};

export function MonitorsSection() {
  const studio = useStudio();
  const ipCameras = useStore(studio.cameras.store, (s) => s.cameras).filter((camera) => camera.source === "ip");
  const controller = studio.automation.monitors;
  const monitors = useStore(controller.store, (s) => s.monitors);
  const now = useStore(controller.store, (s) => s.now);
  useEffect(() => controller.watch(), [controller]);

  return (
    <section className="space-y-3" aria-labelledby="automate-monitors-heading">
      <h3 id="automate-monitors-heading" className="text-sm font-semibold text-white">
        Monitors
      </h3>
      <p className="text-xs text-slate-400">Run on the server with no browser open, on an IP camera.</p>
      {monitors === null ? (
        <p className="text-xs text-slate-400">Loading monitors...</p>
      ) : monitors.length ? (
        <ul className="space-y-2" aria-label="Monitors">
          {monitors.map((monitor) => {
            const result = describeResult(monitor);
            return (
              <li key={monitor.id} className="space-y-1 rounded border border-ink-800 p-2 text-xs text-slate-300" aria-label={monitor.name}>
                <div className="flex items-center justify-between gap-2">
                  <span className="font-medium text-slate-100">{monitor.name}</span>
                  <span className={`rounded px-1.5 py-0.5 ${STATE_CLASSES[monitor.state]}`}>{STATE_LABELS[monitor.state]}</span>
                </div>
                <p>
                  {monitor.cameraName} · {MONITOR_KIND_LABELS[monitor.kind]} · {describeSettings(monitor)}
                </p>
                <p>
                  Last run {relativeTime(monitor.lastRunAt, now)}
                  {result ? ` · ${result}` : ""}
                </p>
                {monitor.statusMessage && (monitor.state === "stopped" || monitor.state === "error") ? (
                  <p role="status" className={monitor.state === "stopped" ? "text-amber-300" : "text-red-300"}>
                    {monitor.statusMessage}
                  </p>
                ) : null}
                {monitor.lastError && monitor.state === "running" ? <p className="text-slate-500">Last error: {monitor.lastError}</p> : null}
                <div className="flex gap-2">
                  {monitor.state === "running" || monitor.state === "error" ? (
                    <Button variant="secondary" className="px-2 py-0.5 text-xs" onClick={() => void controller.act(monitor, "pause")} aria-label={`Pause ${monitor.name}`}>
                      Pause
                    </Button>
                  ) : (
                    <Button variant="secondary" className="px-2 py-0.5 text-xs" onClick={() => void controller.act(monitor, "resume")} aria-label={`Resume ${monitor.name}`}>
                      Resume
                    </Button>
                  )}
                  <Button variant="ghost" className="px-2 py-0.5 text-xs" onClick={() => void controller.act(monitor, "remove")} aria-label={`Delete ${monitor.name}`}>
                    Delete
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-xs text-slate-400">No monitors yet</p>
      )}
      <MonitorForm cameras={ipCameras} />
    </section>
  );
}
