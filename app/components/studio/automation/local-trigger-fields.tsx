// The monitor form's fields for "Capture on local vision": the class, what it does (appears, enters a zone, crosses a
// line, loiters in a zone), the camera's line or zone, and an optional question for Moondream about the photo.
import { useEffect, useId, useMemo, useState, type ReactNode } from "react";
import { LOCAL_TRIGGERS, triggerRegion, type LocalTrigger } from "#app/schemas/monitors";
import type { MonitorFieldErrors } from "#app/studio/automation/monitors-controller";
import { Field } from "../../ui/field";
import { useDetectorLabels } from "../ai/class-picker";
import { useStore, useStudio } from "../studio-context";

const TRIGGER_TEXT: Record<LocalTrigger, string> = { appears: "Appears", enters: "Enters a zone", crosses: "Crosses a line", loiters: "Loiters in a zone" };

export function useLocalTrigger() {
  const [label, setLabel] = useState("person");
  const [trigger, setTrigger] = useState<LocalTrigger>("appears");
  const [regionId, setRegionId] = useState("");
  const [describePrompt, setDescribePrompt] = useState("");
  return {
    label,
    setLabel,
    trigger,
    setTrigger,
    regionId,
    setRegionId,
    describePrompt,
    setDescribePrompt,
    /** The settings as the API takes them (the region only when the trigger has one). */
    settings: () => ({ label, trigger, regionId: triggerRegion(trigger) && regionId ? regionId : null, describePrompt: describePrompt.trim() || null }),
  };
}

type TriggerState = ReturnType<typeof useLocalTrigger>;

const selectClass = "block w-full rounded-md border border-ink-700 bg-ink-900 px-3 py-2 text-sm text-slate-100";

function Select({
  id,
  label,
  value,
  onChange,
  error,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-200">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={selectClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {children}
      </select>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function LocalTriggerFields({ state, cameraId, errors }: { state: TriggerState; cameraId: string; errors: MonitorFieldErrors }) {
  const id = useId();
  const { monitors } = useStudio().automation;
  const labels = useDetectorLabels();
  const region = triggerRegion(state.trigger);
  const regions = useStore(monitors.store, (s) => s.regions[cameraId]);
  const choices = useMemo(() => (region === "line" ? (regions?.lines ?? []) : region === "zone" ? (regions?.zones ?? []) : []), [region, regions]);
  const { regionId, setRegionId } = state;
  // The camera's lines and zones, read again when the camera or the trigger changes (one may have been drawn since).
  useEffect(() => {
    if (region && cameraId) void monitors.loadRegions(cameraId);
  }, [monitors, cameraId, region]);
  // The first line or zone is chosen until the person picks one; a choice that is not offered any more is dropped.
  useEffect(() => {
    if (!choices.some((c) => c.id === regionId)) setRegionId(choices[0]?.id ?? "");
  }, [choices, regionId, setRegionId]);
  const classes = labels.includes(state.label) ? labels : [state.label, ...labels];
  return (
    <>
      <Select id={`${id}-class`} label="Class" value={state.label} onChange={state.setLabel} error={errors.label}>
        {classes.map((label) => (
          <option key={label} value={label}>
            {label}
          </option>
        ))}
      </Select>
      <Select id={`${id}-trigger`} label="Capture when it" value={state.trigger} onChange={(value) => state.setTrigger(value as LocalTrigger)}>
        {LOCAL_TRIGGERS.map((trigger) => (
          <option key={trigger} value={trigger}>
            {TRIGGER_TEXT[trigger]}
          </option>
        ))}
      </Select>
      {region ? (
        <Select id={`${id}-region`} label={region === "line" ? "Line" : "Zone"} value={regionId} onChange={setRegionId} error={errors.regionId}>
          {choices.length === 0 ? <option value="">{`No ${region}s on this camera yet: draw one in Local vision`}</option> : null}
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name}
            </option>
          ))}
        </Select>
      ) : null}
      <Field
        label="Describe with Moondream (optional)"
        id={`${id}-describe`}
        placeholder="e.g. What is the person wearing?"
        value={state.describePrompt}
        onChange={(e) => state.setDescribePrompt(e.target.value)}
        errors={errors.describePrompt ? [errors.describePrompt] : undefined}
      />
    </>
  );
}
