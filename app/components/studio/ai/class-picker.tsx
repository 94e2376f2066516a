// The searchable multi-select over the local detector's classes (the built-in's 80 COCO classes, or those of the
// administrator's own model): local detection's classes, and the classes a zone or line counts. Empty means every class.
import { useId, useState } from "react";
import { useAi, useStore } from "../studio-context";
import { inputClass } from "./detection-controls";

/** The classes the deployment's local detector knows, in its order. */
export function useDetectorLabels(): readonly string[] {
  const { localVision } = useAi();
  return useStore(localVision.store, (s) => s.model.labels);
}

export function ClassPicker({
  legend,
  value,
  onChange,
  testId,
  empty = "Every object (none picked)",
  describedBy,
}: {
  legend: string;
  value: readonly string[];
  onChange: (classes: string[]) => void;
  testId?: string;
  /** What an empty choice means where the picker is used. */
  empty?: string;
  /** The id of a message about the choice (an error under it). */
  describedBy?: string;
}) {
  const [search, setSearch] = useState("");
  const id = useId();
  const term = search.trim().toLowerCase();
  const labels = useDetectorLabels();
  const listed = labels.filter((label) => label.toLowerCase().includes(term));
  const toggle = (label: string, on: boolean) => onChange(on ? [...value, label] : value.filter((c) => c !== label));
  return (
    <fieldset className="grid gap-2 text-sm text-slate-300" data-testid={testId} aria-describedby={describedBy}>
      <legend className="mb-1">{legend}</legend>
      <p className="text-xs text-slate-400">{value.length === 0 ? empty : value.join(", ")}</p>
      <label htmlFor={id} className="sr-only">
        Search objects
      </label>
      <input
        id={id}
        type="search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        placeholder={`Search ${labels.length} objects, e.g. ${labels.includes("car") ? "car" : (labels[0] ?? "car")}`}
        className={inputClass}
      />
      <div className="grid max-h-40 grid-cols-2 gap-x-3 gap-y-1 overflow-y-auto">
        {listed.map((label) => (
          <label key={label} className="flex items-center gap-2 text-xs">
            <input type="checkbox" checked={value.includes(label)} onChange={(e) => toggle(label, e.target.checked)} className="accent-brand-500" />
            {label}
          </label>
        ))}
        {listed.length === 0 ? <p className="col-span-2 text-xs text-slate-500">No object matches “{search}”.</p> : null}
      </div>
    </fieldset>
  );
}
