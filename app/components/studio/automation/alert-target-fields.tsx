// A local-vision alert rule's "what and where": the class filter (any, or one of the local detector's classes),
// and the line or zone watched (any, or one picked by camera then name from that camera's lines or zones).
import { useEffect } from "react";
import { useDetectorLabels } from "../ai/class-picker";
import { useStore, useStudio } from "../studio-context";
import { regionWord, type VisionKind } from "./alert-rule-text";

export interface VisionTarget {
  /** The camera whose lines or zones are offered ("" : any line or zone of any camera). */
  cameraId: string;
  /** The line or zone watched ("": any). */
  targetId: string;
  /** The class filter ("": any class). */
  object: string;
}

const inputClass = "rounded-md border border-ink-700 bg-ink-900 px-2 py-1.5 text-sm text-slate-100";

export function AlertTargetFields({
  id,
  kind,
  value,
  onChange,
  errors,
}: {
  id: string;
  kind: VisionKind;
  value: VisionTarget;
  onChange: (next: VisionTarget) => void;
  errors: { targetId?: string; object?: string };
}) {
  const studio = useStudio();
  const cameras = useStore(studio.cameras.store, (s) => s.cameras);
  const labels = useDetectorLabels();
  const word = regionWord(kind);
  const { alerts } = useStudio().automation;
  const targets = useStore(alerts.store, (s) => s.targets);
  const regions = targets && targets.cameraId === value.cameraId && targets.word === word ? targets.list : null;
  useEffect(() => void alerts.loadTargets(value.cameraId, word), [alerts, value.cameraId, word]);

  const errorText = (field: "targetId" | "object") =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="w-full text-xs text-red-400">
        {errors[field]}
      </p>
    ) : null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm text-slate-200">
      <label htmlFor={`${id}-class`}>Class</label>
      <input
        id={`${id}-class`}
        list={`${id}-classes`}
        placeholder="any class"
        value={value.object}
        onChange={(e) => onChange({ ...value, object: e.target.value })}
        className={`${inputClass} w-28`}
        aria-invalid={errors.object ? true : undefined}
        aria-describedby={errors.object ? `${id}-object-error` : undefined}
      />
      <datalist id={`${id}-classes`}>
        {labels.map((label) => (
          <option key={label} value={label} />
        ))}
      </datalist>
      {errorText("object")}
      <label htmlFor={`${id}-camera`}>on</label>
      <select id={`${id}-camera`} value={value.cameraId} onChange={(e) => onChange({ ...value, cameraId: e.target.value, targetId: "" })} className={inputClass}>
        <option value="">any camera</option>
        {cameras.map((camera) => (
          <option key={camera.id} value={camera.id}>
            {camera.name}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-target`} className="sr-only">
        {word === "line" ? "Line" : "Zone"}
      </label>
      <select
        id={`${id}-target`}
        value={value.targetId}
        onChange={(e) => onChange({ ...value, targetId: e.target.value })}
        className={inputClass}
        disabled={!value.cameraId}
        aria-invalid={errors.targetId ? true : undefined}
        aria-describedby={errors.targetId ? `${id}-targetId-error` : undefined}
      >
        <option value="">{word === "line" ? "Any line" : "Any zone"}</option>
        {(regions ?? []).map((region) => (
          <option key={region.id} value={region.id}>
            {region.name}
          </option>
        ))}
      </select>
      {value.cameraId && regions?.length === 0 ? <p className="w-full text-xs text-slate-400">{`No ${word}s on this camera yet: draw one on the preview.`}</p> : null}
      {errorText("targetId")}
    </div>
  );
}
