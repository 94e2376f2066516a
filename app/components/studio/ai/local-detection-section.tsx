// The Detections tab's local source: the switch, the detector's loading progress, backend and frame rate, what it
// sees now (and the administrator's model when it is not the built-in), the classes to look for (a searchable
// multi-select over the detector's classes), and whether boxes show their track ids.
import type { LocalVisionState } from "#app/studio/local-vision/local-vision-controller";
import { CommandToggle } from "../command-controls";
import { useAi, useStore } from "../studio-context";
import { ClassPicker } from "./class-picker";
import { Section, Toggle } from "./detection-controls";
import { BoxStyleFields } from "./box-style-fields";

const BACKEND_NAMES: Record<NonNullable<LocalVisionState["backend"]>, string> = { webgpu: "WebGPU", webgl: "WebGL", wasm: "WASM" };

export function LocalDetectionSection() {
  return (
    <Section title="Local Detection" testId="local-detection">
      <CommandToggle id="detection.local" hint="Runs on this device: no key, no AI calls." />
      <LocalStatus />
      <LocalClasses />
      <TrackIds />
      <BoxStyleFields />
    </Section>
  );
}

function LocalStatus() {
  const { localVision } = useAi();
  const status = useStore(localVision.store, (s) => s.status);
  const progress = useStore(localVision.store, (s) => s.progress);
  const backend = useStore(localVision.store, (s) => s.backend);
  const fps = useStore(localVision.store, (s) => (s.fps === null ? null : s.fps.toFixed(1)));
  const found = useStore(localVision.store, (s) => s.tracks.length);
  const error = useStore(localVision.store, (s) => s.error);
  const model = useStore(localVision.store, (s) => (s.model.kind === "onnx" ? s.model.name : null));
  const fromServer = useStore(localVision.store, (s) => s.fromServer);
  const modelLine = model ? (
    <p className="text-xs text-slate-400" data-testid="local-model">
      Model: {model} (your administrator’s)
    </p>
  ) : null;
  if (status === "failed") return <p className="text-xs text-red-300">{error}</p>;
  if (status === "loading") {
    const percent = Math.round(progress * 100);
    return (
      <div className="grid gap-1 text-xs text-slate-400" data-testid="local-loading">
        <span>Loading the detector… {percent}%</span>
        <progress className="w-full accent-brand-500" max={100} value={percent} aria-label="Loading the local detector" />
        {modelLine}
      </div>
    );
  }
  if (status === "running" && fromServer) {
    // An IP camera the server watches: its pipeline detects and counts; this device only draws what it sends.
    return (
      <p className="text-xs text-slate-400" aria-live="polite" data-testid="local-status">
        <span data-testid="local-backend">On the server (this camera is watched with local vision)</span>
        {fps === null ? "" : ` · ${fps} frames/s`} · {found} found
      </p>
    );
  }
  if (status !== "running" || !backend) return modelLine;
  return (
    <>
      <p className="text-xs text-slate-400" aria-live="polite" data-testid="local-status">
        <span data-testid="local-backend">Running on {BACKEND_NAMES[backend]}</span>
        {fps === null ? "" : ` · ${fps} frames/s`} · {found} found
      </p>
      {modelLine}
    </>
  );
}

function LocalClasses() {
  const { localVision } = useAi();
  const classes = useStore(localVision.store, (s) => s.classes);
  return <ClassPicker legend="Objects to detect" value={classes} onChange={(next) => localVision.setClasses(next)} testId="local-classes" />;
}

function TrackIds() {
  const { localVisionPrefs } = useAi();
  const shown = useStore(localVisionPrefs.store, (s) => s.showTrackIds);
  return <Toggle label="Show track ids" hint='Label boxes "person #12" rather than "person".' checked={shown} onChange={(on) => localVisionPrefs.setShowTrackIds(on)} />;
}
