// Settings → Visual overlays: LUT colour grading (on/off, picker with built-ins first, intensity,
// .cube upload and delete), histogram (luma or RGB, log scale) and zebra (mode, thresholds, opacity).
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { LUT_INTENSITY_STEP, ZEBRA_OPACITY_STEP } from "../../image/overlay-settings";
import type { HistogramMode, ZebraMode } from "../../image/types";
import { Button } from "../ui/button";
import { TrashIcon } from "../ui/icons";
import { useCommand, useStudio, useStore } from "./studio-context";

const selectClass = "w-full rounded-md border border-ink-700 bg-ink-950 px-2 py-1.5 text-sm disabled:opacity-50";
const fieldClass = "grid gap-1 text-sm text-slate-300";

/** An overlay's on/off checkbox, for its command. */
function Toggle({ command: id }: { command: string }) {
  const { command, pressed, run } = useCommand(id);
  return (
    <label className="flex items-center gap-2 text-sm font-medium text-slate-200">
      <input type="checkbox" checked={pressed} onChange={() => run()} className="h-4 w-4 accent-brand-500" />
      {command.label}
    </label>
  );
}

function Slider({
  label,
  value,
  display,
  min,
  max,
  step,
  onChange,
}: {
  label: string;
  value: number;
  display: string;
  min: number;
  max: number;
  step: number;
  onChange: (value: number) => void;
}) {
  return (
    <label className={fieldClass}>
      <span className="flex justify-between">
        {label}
        <output className="text-slate-400 tabular-nums">{display}</output>
      </span>
      <input type="range" aria-label={label} min={min} max={max} step={step} value={value} onChange={(e) => onChange(Number(e.target.value))} className="accent-brand-500" />
    </label>
  );
}

/** A select whose label is its own element: a <label> wrapping a <select> would take the options' text into its name. */
function Select({ label, value, onChange, disabled, children }: { label: string; value: string; onChange: (value: string) => void; disabled?: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <div className={fieldClass}>
      <label htmlFor={id}>{label}</label>
      <select id={id} className={selectClass} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

export function OverlaySettings() {
  const studio = useStudio();
  const { overlays } = studio;
  const settings = useStore(overlays.store, (s) => s.settings);
  const luts = useStore(overlays.store, (s) => s.luts);
  const lutsLoaded = useStore(overlays.store, (s) => s.lutsLoaded);
  const uploading = useStore(overlays.store, (s) => s.uploading);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const selected = luts.find((l) => l.id === settings.lutId) ?? null;
  const builtins = luts.filter((l) => l.builtin);
  const uploads = luts.filter((l) => !l.builtin);

  useEffect(() => overlays.start(), [overlays]);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setUploadError(null);
    const result = await overlays.upload(file);
    if (!result.ok) setUploadError(result.error);
  };

  return (
    <section className="space-y-5" aria-labelledby="visual-overlays-heading" data-testid="overlay-settings">
      <h3 id="visual-overlays-heading" className="text-sm font-semibold text-white">
        Visual overlays
      </h3>

      <div className="space-y-3">
        <Toggle command="overlays.lut" />
        <Select label="LUT" value={settings.lutId ?? ""} disabled={!lutsLoaded} onChange={(lutId) => overlays.update({ lutId: lutId || null })}>
          <option value="">None</option>
          {builtins.length ? (
            <optgroup label="Built-in">
              {builtins.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </optgroup>
          ) : null}
          {uploads.length ? (
            <optgroup label="Uploaded">
              {uploads.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </optgroup>
          ) : null}
        </Select>
        <Slider
          label="Intensity"
          value={settings.lutIntensity}
          display={settings.lutIntensity.toFixed(2)}
          min={0}
          max={1}
          step={LUT_INTENSITY_STEP}
          onChange={(lutIntensity) => overlays.update({ lutIntensity })}
        />
        <div className="flex flex-wrap gap-2">
          <input
            ref={fileInput}
            type="file"
            accept=".cube"
            className="sr-only"
            aria-label="LUT file"
            aria-describedby={uploadError ? errorId : undefined}
            onChange={(e) => {
              void upload(e.target.files?.[0]);
              e.target.value = ""; // picking the same file again fires change again
            }}
          />
          <Button variant="secondary" className="px-3 py-1.5" disabled={uploading} onClick={() => fileInput.current?.click()}>
            {uploading ? "Uploading…" : "Upload LUT"}
          </Button>
          <Button
            variant="secondary"
            className="px-3 py-1.5"
            disabled={!selected || selected.builtin}
            title={selected?.builtin ? "Built-in presets cannot be deleted" : undefined}
            onClick={() => selected && void overlays.remove(selected.id)}
          >
            <TrashIcon /> Delete LUT
          </Button>
        </div>
        {uploadError ? (
          <p id={errorId} role="alert" className="text-sm text-red-400">
            {uploadError}
          </p>
        ) : null}
      </div>

      <div className="space-y-3">
        <Toggle command="overlays.histogram" />
        <div className="grid grid-cols-2 items-end gap-3">
          <Select label="Histogram mode" value={settings.histogramMode} onChange={(mode) => overlays.update({ histogramMode: mode as HistogramMode })}>
            <option value="luma">Luma</option>
            <option value="rgb">RGB</option>
          </Select>
          <label className="flex items-center gap-2 pb-2 text-sm text-slate-300">
            <input type="checkbox" checked={settings.histogramLog} onChange={(e) => overlays.update({ histogramLog: e.target.checked })} className="accent-brand-500" />
            Log scale
          </label>
        </div>
      </div>

      <div className="space-y-3">
        <Toggle command="overlays.zebra" />
        <Select label="Zebra mode" value={settings.zebraMode} onChange={(mode) => overlays.update({ zebraMode: mode as ZebraMode })}>
          <option value="high">High (over-exposure)</option>
          <option value="low">Low (under-exposure)</option>
          <option value="both">Both</option>
        </Select>
        {settings.zebraMode !== "low" ? (
          <Slider
            label="High threshold"
            value={settings.zebraHigh}
            display={String(settings.zebraHigh)}
            min={0}
            max={255}
            step={1}
            onChange={(zebraHigh) => overlays.update({ zebraHigh })}
          />
        ) : null}
        {settings.zebraMode !== "high" ? (
          <Slider
            label="Low threshold"
            value={settings.zebraLow}
            display={settings.zebraLow > 0 ? String(settings.zebraLow) : "Off"}
            min={0}
            max={255}
            step={1}
            onChange={(zebraLow) => overlays.update({ zebraLow })}
          />
        ) : null}
        <Slider
          label="Zebra opacity"
          value={Math.round(settings.zebraOpacity * 100)}
          display={`${Math.round(settings.zebraOpacity * 100)}%`}
          min={0}
          max={100}
          step={ZEBRA_OPACITY_STEP * 100}
          onChange={(percent) => overlays.update({ zebraOpacity: percent / 100 })}
        />
      </div>
    </section>
  );
}
