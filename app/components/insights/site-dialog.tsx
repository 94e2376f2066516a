// Make or change a site: its name, time zone, the hour its day starts (occupancy resets), capacity, cameras, and
// doors (the lines people enter by, with the direction that is an entry).
import { useId, useState } from "react";
import { insightsApi } from "../../lib/api/insights";
import type { Camera } from "../../schemas/cameras";
import { siteInputSchema, type Site } from "../../schemas/insights";
import type { Line } from "../../schemas/local-vision";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { toast } from "../ui/toast-store";
import { FieldError, SelectField, TextField, inputClass } from "./controls";
import { apiErrors, schemaErrors, type FormErrors } from "./form-errors";

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  // "UTC" is a name the server accepts but some runtimes leave out of the list.
  return zones.includes("UTC") ? zones : [...zones, "UTC"];
}

export function SiteDialog({
  site,
  cameras,
  lines,
  open,
  onOpenChange,
  onSaved,
}: {
  site: Site | null;
  cameras: Camera[];
  lines: Line[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (site: Site) => void;
}) {
  const id = useId();
  const [name, setName] = useState(site?.name ?? "");
  const [timeZone, setTimeZone] = useState(site?.timeZone ?? browserTimeZone());
  const [dayStartsAt, setDayStartsAt] = useState(site?.dayStartsAt ?? 4);
  const [capacity, setCapacity] = useState(site?.capacity ? String(site.capacity) : "");
  const [cameraIds, setCameraIds] = useState<string[]>(site?.cameraIds ?? []);
  const [doors, setDoors] = useState<Map<string, "in" | "out">>(new Map(site?.doors.map((d) => [d.lineId, d.entering]) ?? []));
  const [errors, setErrors] = useState<FormErrors>({});
  const [saving, setSaving] = useState(false);
  const siteLines = lines.filter((l) => cameraIds.includes(l.cameraId));

  const save = async () => {
    const body = {
      name,
      timeZone,
      dayStartsAt,
      capacity: capacity.trim() === "" ? null : Number(capacity),
      cameraIds,
      doors: [...doors].filter(([lineId]) => siteLines.some((l) => l.id === lineId)).map(([lineId, entering]) => ({ lineId, entering })),
    };
    const checked = siteInputSchema.safeParse(body);
    if (!checked.success) return setErrors(schemaErrors(checked.error));
    setErrors({});
    setSaving(true);
    try {
      const saved = site ? await insightsApi.updateSite(site.id, body) : await insightsApi.createSite(body);
      toast({ title: site ? "Site saved" : "Site added", description: saved.name });
      onSaved(saved);
      onOpenChange(false);
    } catch (error) {
      setErrors(apiErrors(error, "Couldn't save the site"));
    } finally {
      setSaving(false);
    }
  };

  const described = (field: string) => (errors[field] ? `${id}-${field}-error` : undefined);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={site ? `Edit ${site.name}` : "Add site"}
      description="A place with its cameras and doors, counted in its own time zone."
      size="lg"
    >
      <form
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <TextField id={`${id}-name`} label="Name" value={name} onChange={setName} error={errors.name} />
        <div className="grid gap-3 sm:grid-cols-3">
          <SelectField id={`${id}-tz`} label="Time zone" value={timeZone} onChange={setTimeZone} error={errors.timeZone}>
            {timeZones().map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </SelectField>
          <SelectField id={`${id}-day`} label="Day starts at" value={String(dayStartsAt)} onChange={(v) => setDayStartsAt(Number(v))} error={errors.dayStartsAt}>
            {Array.from({ length: 24 }, (_, h) => (
              <option key={h} value={h}>
                {String(h).padStart(2, "0")}:00
              </option>
            ))}
          </SelectField>
          <div className="space-y-1">
            <label htmlFor={`${id}-capacity`} className="block text-xs font-medium text-slate-300">
              Capacity (optional)
            </label>
            <input
              id={`${id}-capacity`}
              type="number"
              inputMode="numeric"
              min={1}
              className={inputClass}
              value={capacity}
              onChange={(e) => setCapacity(e.target.value)}
              aria-invalid={errors.capacity ? true : undefined}
              aria-describedby={described("capacity")}
            />
            <FieldError id={`${id}-capacity-error`} message={errors.capacity} />
          </div>
        </div>
        <fieldset className="space-y-1" aria-describedby={described("cameraIds")}>
          <legend className="text-sm font-medium text-slate-200">Cameras</legend>
          {cameras.length === 0 ? <p className="text-sm text-slate-400">Add a camera in the studio first.</p> : null}
          <div className="grid gap-1 sm:grid-cols-2">
            {cameras.map((camera) => (
              <label key={camera.id} className="flex items-center gap-2 text-sm text-slate-200">
                <input
                  type="checkbox"
                  checked={cameraIds.includes(camera.id)}
                  onChange={(e) => setCameraIds(e.target.checked ? [...cameraIds, camera.id] : cameraIds.filter((c) => c !== camera.id))}
                />
                {camera.name}
              </label>
            ))}
          </div>
          <FieldError id={`${id}-cameraIds-error`} message={errors.cameraIds} />
        </fieldset>
        <fieldset className="space-y-1" aria-describedby={described("doors")}>
          <legend className="text-sm font-medium text-slate-200">Doors</legend>
          <p className="text-xs text-slate-400">The lines people enter and leave by. None chosen: every line of the site&apos;s cameras, &ldquo;in&rdquo; entering.</p>
          {siteLines.map((line) => {
            const entering = doors.get(line.id);
            return (
              <div key={line.id} className="flex flex-wrap items-center gap-2 text-sm text-slate-200">
                <label className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    checked={entering !== undefined}
                    onChange={(e) => {
                      const next = new Map(doors);
                      if (e.target.checked) next.set(line.id, "in");
                      else next.delete(line.id);
                      setDoors(next);
                    }}
                  />
                  {line.name}
                </label>
                {entering ? (
                  <select
                    aria-label={`${line.name}: entering direction`}
                    className="rounded-md border border-ink-700 bg-ink-900 px-2 py-1 text-xs"
                    value={entering}
                    onChange={(e) => setDoors(new Map(doors).set(line.id, e.target.value as "in" | "out"))}
                  >
                    <option value="in">&ldquo;in&rdquo; is entering</option>
                    <option value="out">&ldquo;out&rdquo; is entering</option>
                  </select>
                ) : null}
              </div>
            );
          })}
          <FieldError id={`${id}-doors-error`} message={errors.doors} />
        </fieldset>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {site ? "Save site" : "Add site"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
