// The Detections tab's Follow section (PTZ auto-tracking): the switch with why it is unavailable, what it is doing,
// and its settings — zoom toward a target height, and the preset to go back to after N seconds without the subject.
import { FOLLOW_LIMITS } from "#app/studio/ptz/follow-controller";
import { CommandToggle } from "../command-controls";
import { useStore, useStudio } from "../studio-context";
import { RangeField, Section, SelectField } from "./detection-controls";
import { ToggleRow } from "./toggle-row";

const PHASES = {
  off: null,
  server: "Followed by the server, from its own detection (it goes on with the studio closed)",
  searching: "Looking for the subject...",
  following: "Following",
  centred: "Subject centred",
  lost: "Subject lost: back at the preset",
} as const;
const NO_PRESET = -1;

export function FollowSection() {
  const { follow, ptz, ai } = useStudio();
  const state = useStore(follow.store, (s) => s);
  const presets = useStore(ptz.store, (s) => s.presets);
  // Re-read when what it depends on changes.
  useStore(ptz.store, (s) => s.connection);
  useStore(ai.detection.store, (s) => s.box);
  const reason = state.enabled ? null : follow.unavailable();
  const query = ai.detection.store.get().box.boxQuery;
  const { options } = state;
  const presetOptions = [[NO_PRESET, "None (just stop)"] as const, ...presets.filter((p) => p.number !== null).map((p) => [p.number!, p.name] as const)];
  return (
    <Section title="Follow (PTZ auto-tracking)" testId="follow">
      <CommandToggle id="ptz.follow" hint={reason ?? `Keeps the ${query.trim() || "subject"} centred with the PTZ camera, at most the pan/tilt speed slider's speed.`} />
      {state.enabled ? (
        <p className="text-xs text-slate-400" aria-live="polite" data-testid="follow-phase">
          {PHASES[state.phase]}
        </p>
      ) : null}
      <ToggleRow label="Zoom to keep its size" checked={options.zoom} onChange={(zoom) => follow.updateOptions({ zoom })} />
      {options.zoom ? (
        <RangeField
          label="Target height"
          min={FOLLOW_LIMITS.targetHeight.min}
          max={FOLLOW_LIMITS.targetHeight.max}
          step={0.05}
          value={options.targetHeight}
          onChange={(targetHeight) => follow.updateOptions({ targetHeight })}
          format={(v) => `${Math.round(v * 100)}% of the picture`}
        />
      ) : null}
      <SelectField
        label="When the subject is gone, go to preset"
        value={options.returnPreset ?? NO_PRESET}
        options={presetOptions}
        onChange={(n) => follow.updateOptions({ returnPreset: n === NO_PRESET ? null : n })}
      />
      <RangeField
        label="after"
        min={FOLLOW_LIMITS.lostSeconds.min}
        max={30}
        step={1}
        value={options.lostSeconds}
        onChange={(lostSeconds) => follow.updateOptions({ lostSeconds })}
        format={(v) => `${v} s`}
      />
    </Section>
  );
}
