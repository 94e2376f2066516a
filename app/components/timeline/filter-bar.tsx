// The timeline's filters: search words, camera, type, class and a time range. The search and the class apply when
// submitted (Enter or Search); the selects and times at once.
import { useEffect, useId, useState } from "react";
import type { Camera } from "../../schemas/cameras";
import { TIMELINE_TYPES, type TimelineType } from "../../schemas/timeline";
import { Button } from "../ui/button";
import { inputClass } from "../insights/controls";
import { typeLabel } from "./format";
import type { TimelineFilter } from "./filter";

export function FilterBar({ filter, cameras, onChange }: { filter: TimelineFilter; cameras: readonly Camera[]; onChange: (filter: TimelineFilter) => void }) {
  const id = useId();
  const [q, setQ] = useState(filter.q);
  const [label, setLabel] = useState(filter.label);
  // The URL changed (back button, a strip mark): the fields follow.
  useEffect(() => {
    setQ(filter.q);
  }, [filter.q]);
  useEffect(() => {
    setLabel(filter.label);
  }, [filter.label]);
  const labelClass = "block text-xs font-medium text-slate-300";

  return (
    <form
      role="search"
      className="grid grid-cols-2 gap-3 rounded-lg border border-ink-700 bg-ink-900 p-3 sm:grid-cols-6"
      onSubmit={(e) => {
        e.preventDefault();
        onChange({ ...filter, q, label });
      }}
    >
      <div className="col-span-2 space-y-1 sm:col-span-6">
        <label htmlFor={`${id}-q`} className={labelClass}>
          Search events
        </label>
        <div className="flex gap-2">
          <input id={`${id}-q`} type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder='dog at the back door, "red jacket", -car' className={inputClass} />
          <Button type="submit">Search</Button>
        </div>
      </div>
      <div className="space-y-1 sm:col-span-2">
        <label htmlFor={`${id}-camera`} className={labelClass}>
          Camera
        </label>
        <select id={`${id}-camera`} value={filter.cameraId ?? ""} onChange={(e) => onChange({ ...filter, q, label, cameraId: e.target.value || null })} className={inputClass}>
          <option value="">All cameras</option>
          {cameras.map((camera) => (
            <option key={camera.id} value={camera.id}>
              {camera.name}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-1 sm:col-span-2">
        <label htmlFor={`${id}-type`} className={labelClass}>
          Type
        </label>
        <select
          id={`${id}-type`}
          value={filter.type ?? ""}
          onChange={(e) => onChange({ ...filter, q, label, type: (e.target.value || null) as TimelineType | null })}
          className={inputClass}
        >
          <option value="">All types</option>
          {TIMELINE_TYPES.map((type) => (
            <option key={type} value={type}>
              {typeLabel(type)}
            </option>
          ))}
        </select>
      </div>
      <div className="col-span-2 space-y-1 sm:col-span-2">
        <label htmlFor={`${id}-label`} className={labelClass}>
          Class
        </label>
        <input
          id={`${id}-label`}
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          onBlur={() => label !== filter.label && onChange({ ...filter, q, label })}
          placeholder="person, car…"
          className={inputClass}
        />
      </div>
      <div className="space-y-1 sm:col-span-3">
        <label htmlFor={`${id}-from`} className={labelClass}>
          From
        </label>
        <input
          id={`${id}-from`}
          type="datetime-local"
          step={1}
          value={filter.from}
          onChange={(e) => onChange({ ...filter, q, label, from: e.target.value })}
          className={inputClass}
        />
      </div>
      <div className="space-y-1 sm:col-span-3">
        <label htmlFor={`${id}-to`} className={labelClass}>
          To
        </label>
        <input id={`${id}-to`} type="datetime-local" step={1} value={filter.to} onChange={(e) => onChange({ ...filter, q, label, to: e.target.value })} className={inputClass} />
      </div>
    </form>
  );
}
