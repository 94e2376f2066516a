// Exposure: manual PTZ exposure through the relay (IP), or the webcam's own controls from
// MediaStreamTrack.getCapabilities() (USB) — only what the device reports, clamped to its min/max/step.
import { useEffect, useMemo, useRef, useState } from "react";
import { EXPOSURE_RANGES, type ExposureSetting, SHUTTER_SPEEDS } from "../../schemas/ptz";
import { type CapabilityRange, clampToCapability, type PtzController } from "../../studio/ptz/ptz-controller";
import { useStudio, useStore } from "./studio-context";

const select = "w-full rounded-md border border-ink-700 bg-ink-950 px-2 py-1.5 text-sm";

export function ExposureControls({ ptz }: { ptz: PtzController }) {
  const mode = useStore(ptz.store, (s) => s.mode);
  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-slate-200">Exposure</p>
      {mode === "ip" ? <PtzExposure ptz={ptz} /> : <WebcamControls ptz={ptz} />}
    </div>
  );
}

const PTZ_SLIDERS: { setting: Exclude<ExposureSetting, "mode" | "shutter">; label: string; initial: number }[] = [
  { setting: "iris", label: "Iris", initial: 50 },
  { setting: "gain", label: "Gain (dB)", initial: 0 },
  { setting: "temperature", label: "White balance", initial: 50 },
  { setting: "tint", label: "Tint", initial: 0 },
  { setting: "saturation", label: "Saturation", initial: 50 },
];

function PtzExposure({ ptz }: { ptz: PtzController }) {
  const connected = useStore(ptz.store, (s) => Boolean(s.connection));
  const [values, setValues] = useState<Record<string, number | string>>(() => ({
    mode: "auto",
    shutter: 60,
    ...Object.fromEntries(PTZ_SLIDERS.map((s) => [s.setting, s.initial])),
  }));
  const timers = useRef<Record<string, ReturnType<typeof setTimeout>>>({});
  // Sliders send once they settle, so a drag is one camera command rather than dozens.
  const send = (setting: ExposureSetting, value: number | "auto" | "manual", delay = 150) => {
    setValues((v) => ({ ...v, [setting]: value }));
    clearTimeout(timers.current[setting]);
    timers.current[setting] = setTimeout(() => void ptz.exposure(setting, value), delay);
  };
  return (
    <fieldset className="space-y-2" disabled={!connected} data-testid="ptz-exposure">
      {!connected ? <p className="text-xs text-slate-400">Connect a PTZ camera to set its exposure.</p> : null}
      <label className="grid gap-1 text-xs text-slate-300">
        Exposure mode
        <select className={select} value={values.mode} onChange={(e) => send("mode", e.target.value as "auto" | "manual", 0)}>
          <option value="auto">Auto</option>
          <option value="manual">Manual</option>
        </select>
      </label>
      <label className="grid gap-1 text-xs text-slate-300">
        Shutter
        <select className={select} value={values.shutter} onChange={(e) => send("shutter", Number(e.target.value), 0)}>
          {SHUTTER_SPEEDS.map((s) => (
            <option key={s} value={s}>
              1/{s}
            </option>
          ))}
        </select>
      </label>
      {PTZ_SLIDERS.map(({ setting, label }) => (
        <Slider
          key={setting}
          label={label}
          min={EXPOSURE_RANGES[setting].min}
          max={EXPOSURE_RANGES[setting].max}
          step={1}
          value={Number(values[setting])}
          onChange={(v) => send(setting, v)}
        />
      ))}
    </fieldset>
  );
}

function Slider({ label, min, max, step, value, onChange }: { label: string; min: number; max: number; step: number; value: number; onChange: (value: number) => void }) {
  return (
    <label className="grid grid-cols-[6.5rem_1fr_3rem] items-center gap-2 text-xs text-slate-300">
      {label}
      <input type="range" min={min} max={max} step={step} value={value} aria-label={label} onChange={(e) => onChange(Number(e.target.value))} />
      <span className="text-right tabular-nums">{Number.isInteger(value) ? value : value.toFixed(2)}</span>
    </label>
  );
}

type Capabilities = Record<string, CapabilityRange | string[] | undefined>;

/** The spec's webcam controls in display order; mode-gated sliders show only when their mode is manual. */
const MODES = [
  { name: "exposureMode", label: "Exposure mode", slider: "exposureTime", sliderLabel: "Shutter (exposure time)" },
  { name: "whiteBalanceMode", label: "White balance mode", slider: "colorTemperature", sliderLabel: "Colour temperature" },
  { name: "focusMode", label: "Focus mode", slider: "focusDistance", sliderLabel: "Focus distance" },
] as const;
const PLAIN = [
  ["brightness", "Brightness"],
  ["contrast", "Contrast"],
  ["saturation", "Saturation"],
  ["sharpness", "Sharpness"],
  ["gamma", "Gamma"],
  ["powerLineFrequency", "Power-line frequency"],
  ["pan", "Pan"],
  ["tilt", "Tilt"],
  ["zoom", "Zoom"],
] as const;

function WebcamControls({ ptz }: { ptz: PtzController }) {
  const studio = useStudio();
  const stream = useStore(studio.cameras.store, (s) => (s.selectedCameraId ? (s.sources[s.selectedCameraId]?.stream ?? null) : null));
  const track = useMemo(() => stream?.getVideoTracks()[0] ?? null, [stream]);
  const [caps, setCaps] = useState<Capabilities>({});
  const [settings, setSettings] = useState<Record<string, number | string>>({});
  useEffect(() => {
    if (!track || typeof track.getCapabilities !== "function") {
      setCaps({});
      return;
    }
    setCaps(track.getCapabilities() as unknown as Capabilities);
    setSettings(track.getSettings() as unknown as Record<string, number | string>);
  }, [track, ptz]);

  if (!track) return <p className="text-xs text-slate-400">Select a webcam to use its controls.</p>;
  const apply = (name: string, value: number | string) => {
    setSettings((s) => ({ ...s, [name]: value }));
    void track.applyConstraints({ advanced: [{ [name]: value } as MediaTrackConstraintSet] }).catch((error: unknown) => console.warn(`The webcam refused ${name}`, error));
  };
  const range = (name: string) => {
    const cap = caps[name];
    return cap && !Array.isArray(cap) && typeof cap.min === "number" && typeof cap.max === "number" && cap.max > cap.min ? cap : null;
  };
  const slider = (name: string, label: string) => {
    const r = range(name);
    if (!r) return null;
    const value = clampToCapability(Number(settings[name] ?? r.min), r);
    return (
      <Slider key={name} label={label} min={r.min} max={r.max} step={r.step && r.step > 0 ? r.step : 1} value={value} onChange={(v) => apply(name, clampToCapability(v, r))} />
    );
  };
  const controls = [
    ...MODES.flatMap(({ name, label, slider: sliderName, sliderLabel }) => {
      const modes = caps[name];
      if (!Array.isArray(modes) || modes.length === 0) return [];
      const current = String(settings[name] ?? modes[0]);
      return [
        <label key={name} className="grid gap-1 text-xs text-slate-300">
          {label}
          <select className={select} value={current} onChange={(e) => apply(name, e.target.value)}>
            {modes.map((m) => (
              <option key={m} value={m}>
                {m === "continuous" ? "auto" : m}
              </option>
            ))}
          </select>
        </label>,
        current === "manual" ? slider(sliderName, sliderLabel) : null,
      ];
    }),
    ...PLAIN.map(([name, label]) => slider(name, label)),
  ].filter(Boolean);
  return (
    <div className="space-y-2" data-testid="webcam-controls">
      {controls.length === 0 ? <p className="text-xs text-slate-400">This webcam reports no adjustable controls.</p> : controls}
    </div>
  );
}
