// The AI tab's shared controls: a labelled on/off switch row (a button with role="switch", so it is one tab stop and
// announces its state), and a whole-seconds interval slider.
import type { ReactNode } from "react";

export function ToggleRow({
  label,
  checked,
  onChange,
  disabled,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  disabled?: boolean;
  hint?: ReactNode;
}) {
  return (
    <div className="flex items-start justify-between gap-3">
      <div className="min-w-0">
        <p className="text-sm font-medium text-white">{label}</p>
        {hint ? <p className="text-xs text-slate-400">{hint}</p> : null}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={label}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={`relative mt-0.5 inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors disabled:opacity-50 ${checked ? "bg-brand-500" : "bg-ink-700"}`}
      >
        <span className={`inline-block h-4 w-4 rounded-full bg-white shadow transition-transform ${checked ? "translate-x-4" : "translate-x-0.5"}`} />
      </button>
    </div>
  );
}

export const selectClass = "w-full rounded-md border border-ink-700 bg-ink-950 px-2 py-1.5 text-sm text-slate-100 disabled:opacity-50";

/** A whole-seconds slider with its current value in the caption ("Count interval: 5 s"). */
export function SecondsSlider({
  caption,
  label,
  range,
  value,
  onChange,
}: {
  caption: string;
  label: string;
  range: { min: number; max: number };
  value: number;
  onChange: (seconds: number) => void;
}) {
  return (
    <label className="grid gap-1 text-xs text-slate-300">
      <span>
        {caption}: <span className="text-white">{value} s</span>
      </span>
      <input type="range" aria-label={label} min={range.min} max={range.max} step={1} value={value} onChange={(e) => onChange(Number(e.target.value))} />
    </label>
  );
}
