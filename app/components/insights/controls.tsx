// Small form controls of the Insights page: a labelled text input and select, a checkbox list in a disclosure (many choices that fold
// away on a phone), and the error line under a field.
import type { ReactNode } from "react";

export const inputClass = "block w-full rounded-md border border-ink-700 bg-ink-900 px-3 py-2 text-sm text-slate-100 focus:border-brand-400 focus:outline-none";

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="text-sm text-red-400">
      {message}
    </p>
  ) : null;
}

/** A labelled text input with its error line under it. */
export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  className = "space-y-1",
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  /** The wrapper's classes (a grid span). */
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-xs font-medium text-slate-300">
        {label}
      </label>
      <input
        id={id}
        className={inputClass}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A whole number of days between `min` and `max`, with an optional hint under it and its error line. */
export function DaysField({
  id,
  label,
  value,
  onChange,
  min,
  max,
  hint,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  min: number;
  max: number;
  hint?: string;
  error?: string | undefined;
}) {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-medium text-slate-300">
        {label}
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        className={inputClass}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-400">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function SelectField({
  id,
  label,
  value,
  onChange,
  children,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
  error?: string | undefined;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-medium text-slate-300">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass}
      >
        {children}
      </select>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** Checkboxes for a list, folded under a summary saying how many are chosen ("All" when none: no narrowing). */
export function CheckList({
  label,
  options,
  chosen,
  onChange,
  allLabel = "All",
  error,
}: {
  label: string;
  options: { id: string; label: string }[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
  allLabel?: string;
  error?: string | undefined;
}) {
  const names = options.filter((o) => chosen.includes(o.id)).map((o) => o.label);
  return (
    <details className="group relative">
      <summary className="cursor-pointer list-none space-y-1">
        <span className="block text-xs font-medium text-slate-300">{label}</span>
        <span className={`${inputClass} truncate`}>{names.length === 0 ? allLabel : names.join(", ")}</span>
      </summary>
      <fieldset className="absolute z-20 mt-1 max-h-64 w-full min-w-56 overflow-auto rounded-md border border-ink-700 bg-ink-800 p-2 shadow-xl">
        <legend className="sr-only">{label}</legend>
        {options.length === 0 ? <p className="px-1 py-1 text-sm text-slate-400">None yet</p> : null}
        {options.map((option) => (
          <label key={option.id} className="flex items-center gap-2 rounded px-1 py-1 text-sm text-slate-200 hover:bg-ink-700">
            <input
              type="checkbox"
              checked={chosen.includes(option.id)}
              onChange={(e) => onChange(e.target.checked ? [...chosen, option.id] : chosen.filter((id) => id !== option.id))}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <FieldError id={`${label}-error`} message={error} />
    </details>
  );
}
