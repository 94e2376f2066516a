// Capture mode buttons, the mode's settings, the Capture button, and progress with Stop for bursts and
// timelapses (Capture and Stop are commands).
import type { CaptureMode } from "../../schemas/photos";
import { BURST_COUNT, BURST_INTERVALS_MS, formatInterval, TIMELAPSE_COUNT, TIMELAPSE_INTERVALS_MS } from "../../studio/settings";
import { CommandIcon } from "./command-controls";
import { useCommand, useStudio, useStore } from "./studio-context";

const MODES: Array<[CaptureMode, string]> = [
  ["single", "Single"],
  ["burst", "Burst"],
  ["timelapse", "Timelapse"],
];

const selectClass = "rounded-md border border-ink-700 bg-ink-950 px-2 py-1 text-xs text-slate-100";

export function CaptureModeButtons() {
  const { capture } = useStudio();
  const mode = useStore(capture.store, (s) => s.capture.mode);
  return (
    <div role="radiogroup" aria-label="Capture mode" className="inline-flex rounded-md border border-ink-700 bg-ink-950 p-0.5">
      {MODES.map(([value, label]) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={mode === value}
          onClick={() => capture.updateCaptureSettings({ mode: value })}
          className={`rounded px-2.5 py-1 text-xs font-medium ${mode === value ? "bg-brand-500 text-white" : "text-slate-300 hover:text-white"}`}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/** The settings of the chosen mode only (spec §4); `layout` picks the compact bar or the roomy panel. */
export function CaptureSettingsFields({ layout = "bar" }: { layout?: "bar" | "panel" }) {
  const { capture } = useStudio();
  const settings = useStore(capture.store, (s) => s.capture);
  const wrap = layout === "bar" ? "flex flex-wrap items-center gap-2 text-xs text-slate-300" : "grid gap-3 text-sm text-slate-300";
  const field = layout === "bar" ? "flex items-center gap-1" : "grid gap-1";
  if (settings.mode === "single") return null;
  if (settings.mode === "burst") {
    return (
      <div className={wrap}>
        <label className={field}>
          Photos
          <input
            type="number"
            min={BURST_COUNT.min}
            max={BURST_COUNT.max}
            value={settings.burstCount}
            onChange={(e) => capture.updateCaptureSettings({ burstCount: Number(e.target.value) })}
            className={`${selectClass} w-16`}
          />
        </label>
        <label className={field}>
          Interval
          <select value={settings.burstIntervalMs} onChange={(e) => capture.updateCaptureSettings({ burstIntervalMs: Number(e.target.value) })} className={selectClass}>
            {BURST_INTERVALS_MS.map((ms) => (
              <option key={ms} value={ms}>
                {formatInterval(ms, "ms")}
              </option>
            ))}
          </select>
        </label>
      </div>
    );
  }
  return (
    <div className={wrap}>
      <label className={field}>
        Interval
        <select value={settings.timelapseIntervalMs} onChange={(e) => capture.updateCaptureSettings({ timelapseIntervalMs: Number(e.target.value) })} className={selectClass}>
          {TIMELAPSE_INTERVALS_MS.map((ms) => (
            <option key={ms} value={ms}>
              {formatInterval(ms)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1">
        <input type="checkbox" checked={settings.timelapseInfinite} onChange={(e) => capture.updateCaptureSettings({ timelapseInfinite: e.target.checked })} />
        Infinite
      </label>
      {settings.timelapseInfinite ? null : (
        <label className={field}>
          Photos
          <input
            type="number"
            min={TIMELAPSE_COUNT.min}
            max={TIMELAPSE_COUNT.max}
            value={settings.timelapseCount}
            onChange={(e) => capture.updateCaptureSettings({ timelapseCount: Number(e.target.value) })}
            className={`${selectClass} w-16`}
          />
        </label>
      )}
    </div>
  );
}

/** `label`: the button's text where it differs from the command's (the phone's "Take Photo"). */
export function CaptureButton({ className = "", label }: { className?: string; label?: string }) {
  const { capture } = useStudio();
  const progress = useStore(capture.store, (s) => s.progress);
  const captureCommand = useCommand("capture");
  const stop = useCommand("capture.stop");
  if (progress?.running) {
    return (
      <div className={`flex items-center gap-2 ${className}`}>
        <div className="min-w-28">
          <p className="text-xs text-slate-300" aria-live="polite" data-testid="capture-progress">
            {progress.taken} of {progress.total ?? "∞"} photos
          </p>
          {progress.total ? (
            <div className="mt-1 h-1.5 w-full overflow-hidden rounded bg-ink-700">
              <div className="h-full bg-brand-400 transition-all" style={{ width: `${(100 * progress.taken) / progress.total}%` }} />
            </div>
          ) : null}
        </div>
        <button
          type="button"
          onClick={() => stop.run()}
          className="inline-flex items-center gap-1.5 rounded-md bg-red-600 px-3 py-2 text-sm font-medium text-white hover:bg-red-700"
        >
          <CommandIcon icon={stop.command.icon} /> {stop.command.label}
        </button>
      </div>
    );
  }
  return (
    <button
      type="button"
      onClick={() => captureCommand.run()}
      className={`inline-flex items-center gap-2 rounded-md bg-brand-500 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-600 ${className}`}
    >
      <CommandIcon icon={captureCommand.command.icon} /> {label ?? captureCommand.command.label}
    </button>
  );
}
