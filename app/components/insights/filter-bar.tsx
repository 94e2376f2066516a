// The report's filter: a site or "All cameras", cameras, lines, zones, classes, the period (a preset or dates) and the
// resolution. Every change goes to the URL (see ./filter.ts), which the page reads back.
import { useId } from "react";
import type { Camera } from "../../schemas/cameras";
import type { Line, Zone } from "../../schemas/local-vision";
import { RESOLUTIONS, type Resolution, type Site } from "../../schemas/insights";
import { CheckList, SelectField, inputClass } from "./controls";
import { PERIOD_PRESETS, allowedResolutions, type InsightsFilter, type Period } from "./filter";

const RESOLUTION_LABELS: Record<Resolution, string> = { minute: "By minute", hour: "By hour", day: "By day", week: "By week", month: "By month" };

export interface FilterChoices {
  sites: Site[];
  cameras: Camera[];
  lines: Line[];
  zones: Zone[];
}

export function FilterBar({
  filter,
  dates,
  choices,
  onChange,
}: {
  filter: InsightsFilter;
  dates: { from: string; to: string };
  choices: FilterChoices;
  onChange: (filter: InsightsFilter) => void;
}) {
  const id = useId();
  const site = choices.sites.find((s) => s.id === filter.siteId) ?? null;
  const cameras = site ? choices.cameras.filter((c) => site.cameraIds.includes(c.id)) : choices.cameras;
  const inScope = (cameraId: string) => (filter.cameraIds.length ? filter.cameraIds.includes(cameraId) : cameras.some((c) => c.id === cameraId));
  const cameraName = (cameraId: string) => choices.cameras.find((c) => c.id === cameraId)?.name ?? "";
  const lines = choices.lines.filter((l) => inScope(l.cameraId));
  const zones = choices.zones.filter((z) => inScope(z.cameraId));
  const labels = [...new Set(["person", ...choices.lines.flatMap((l) => l.labels), ...choices.zones.flatMap((z) => z.labels)])].sort();
  const resolutions = allowedResolutions(dates.from, dates.to);
  const set = (change: Partial<InsightsFilter>) => onChange({ ...filter, ...change });

  return (
    <form role="search" aria-label="Report filter" className="grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-8" onSubmit={(e) => e.preventDefault()}>
      <SelectField id={`${id}-site`} label="Site" value={filter.siteId ?? ""} onChange={(value) => set({ siteId: value || null, cameraIds: [], lineIds: [], zoneIds: [] })}>
        <option value="">All cameras</option>
        {choices.sites.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </SelectField>
      <CheckList
        label="Cameras"
        options={cameras.map((c) => ({ id: c.id, label: c.name }))}
        chosen={filter.cameraIds}
        onChange={(cameraIds) => set({ cameraIds, lineIds: [], zoneIds: [] })}
      />
      <CheckList
        label="Lines"
        allLabel={site ? "The site's doors" : "All"}
        options={lines.map((l) => ({ id: l.id, label: `${l.name} (${cameraName(l.cameraId)})` }))}
        chosen={filter.lineIds}
        onChange={(lineIds) => set({ lineIds })}
      />
      <CheckList
        label="Zones"
        options={zones.map((z) => ({ id: z.id, label: `${z.name} (${cameraName(z.cameraId)})` }))}
        chosen={filter.zoneIds}
        onChange={(zoneIds) => set({ zoneIds })}
      />
      <CheckList label="Classes" options={labels.map((l) => ({ id: l, label: l }))} chosen={filter.labels} onChange={(chosen) => set({ labels: chosen })} />
      <SelectField
        id={`${id}-period`}
        label="Period"
        value={filter.period}
        onChange={(value) => set({ period: value as Period, ...(value === "custom" ? { from: filter.from ?? dates.from, to: filter.to ?? dates.to } : {}) })}
      >
        {PERIOD_PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
        <option value="custom">Custom dates</option>
      </SelectField>
      {filter.period === "custom" ? (
        <div className="col-span-2 grid grid-cols-2 gap-3">
          <div className="space-y-1">
            <label htmlFor={`${id}-from`} className="block text-xs font-medium text-slate-300">
              From
            </label>
            <input id={`${id}-from`} type="date" className={inputClass} value={dates.from} max={dates.to} onChange={(e) => e.target.value && set({ from: e.target.value })} />
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-to`} className="block text-xs font-medium text-slate-300">
              To
            </label>
            <input id={`${id}-to`} type="date" className={inputClass} value={dates.to} min={dates.from} onChange={(e) => e.target.value && set({ to: e.target.value })} />
          </div>
        </div>
      ) : null}
      <SelectField
        id={`${id}-resolution`}
        label="Resolution"
        value={filter.resolution && resolutions.includes(filter.resolution) ? filter.resolution : ""}
        onChange={(value) => set({ resolution: (value || null) as Resolution | null })}
      >
        <option value="">Automatic</option>
        {RESOLUTIONS.map((r) => (
          <option key={r} value={r} disabled={!resolutions.includes(r)}>
            {RESOLUTION_LABELS[r]}
          </option>
        ))}
      </SelectField>
    </form>
  );
}
