// Small labelled controls the Detections, Automate and Assistant sections share: an on/off switch, a
// slider with its value, a select. Native inputs underneath, so keyboard and screen readers just work.
import { useId, type ReactNode } from "react";
import { ToggleRow } from "./toggle-row";

export const inputClass = "w-full rounded-md border border-ink-700 bg-ink-950 px-2 py-1.5 text-sm text-slate-100 focus:border-brand-400 focus:outline-none";

/** The AI panels' one on/off switch. */
export const Toggle = ToggleRow;

export function RangeField({
  label,
  value,
  min,
  max,
  step,
  onChange,
  format = (v) => String(v),
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (value: number) => void;
  format?: (value: number) => string;
}) {
  const id = useId();
  return (
    <div className="grid gap-1 text-sm text-slate-300">
      <div className="flex justify-between">
        <label htmlFor={id}>{label}</label>
        <span className="text-slate-400 tabular-nums">{format(value)}</span>
      </div>
      <input id={id} type="range" min={min} max={max} step={step} value={value} onChange={(e) => onChange(Number(e.target.value))} className="accent-brand-500" />
    </div>
  );
}

export function SelectField<T extends string | number>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: ReadonlyArray<readonly [T, string]>;
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-1 text-sm text-slate-300">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={String(value)}
        onChange={(e) => {
          const picked = options.find(([v]) => String(v) === e.target.value);
          if (picked) onChange(picked[0]);
        }}
        className={inputClass}
      >
        {options.map(([v, text]) => (
          <option key={String(v)} value={String(v)}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ColorField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="flex items-center justify-between text-sm text-slate-300">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="color" value={value} onChange={(e) => onChange(e.target.value)} className="h-7 w-12 cursor-pointer rounded border border-ink-700 bg-ink-950" />
    </div>
  );
}

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="space-y-3" data-testid={testId}>
      <h3 className="text-sm font-semibold text-white">{title}</h3>
      {children}
    </section>
  );
}

export const secondsLabel = (ms: number) => `${ms / 1000} s`;
