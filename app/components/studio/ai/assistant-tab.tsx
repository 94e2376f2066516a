// The Assistant tab: camera context (camera type, target look, intent — kept in localStorage
// "cameraAssistant"), the reference snapshot, interval mode, and Start.
import { useState } from "react";
import { ASSISTANT_INTERVAL_S, TARGET_LOOKS, type TargetLook } from "#app/studio/ai/assistant-advice";
import { Button } from "../../ui/button";
import { CommandToggle } from "../command-controls";
import { useAi, useStore } from "../studio-context";
import { inputClass, Section, SelectField } from "./detection-controls";

const LOOK_OPTIONS = TARGET_LOOKS.map((look) => [look, look] as const) as ReadonlyArray<readonly [TargetLook, string]>;

export function AssistantTab() {
  const { assistant } = useAi();
  const settings = useStore(assistant.store, (s) => s.settings);
  const snapshot = useStore(assistant.store, (s) => s.snapshot);
  const analyzing = useStore(assistant.store, (s) => s.overlay === "analyzing");
  return (
    <div className="space-y-6">
      <Section title="Camera Settings Context">
        <label className="grid gap-1 text-sm text-slate-300">
          Camera type
          <input
            value={settings.cameraType}
            maxLength={100}
            onChange={(e) => assistant.updateSettings({ cameraType: e.target.value })}
            placeholder="e.g. Sony FX3, iPhone 15, PTZ"
            className={inputClass}
          />
        </label>
        <SelectField label="Target look" value={settings.targetLook} options={LOOK_OPTIONS} onChange={(v) => assistant.updateSettings({ targetLook: v })} />
        {settings.targetLook === "Custom" ? (
          <label className="grid gap-1 text-sm text-slate-300">
            Custom look
            <input
              value={settings.customLook}
              maxLength={200}
              onChange={(e) => assistant.updateSettings({ customLook: e.target.value })}
              placeholder="Describe the look you want"
              className={inputClass}
            />
          </label>
        ) : null}
        <label className="grid gap-1 text-sm text-slate-300">
          Intent
          <textarea
            value={settings.intent}
            maxLength={500}
            rows={2}
            onChange={(e) => assistant.updateSettings({ intent: e.target.value })}
            placeholder="What is this shot for?"
            className={inputClass}
          />
        </label>
      </Section>
      <Section title="Reference Snapshot">
        {snapshot ? (
          <img src={snapshot} alt="Reference snapshot" className="w-full rounded-md border border-ink-700" data-testid="assistant-snapshot" />
        ) : (
          <p className="text-xs text-slate-400">No snapshot yet.</p>
        )}
        <Button variant="secondary" className="w-full" onClick={() => void assistant.captureSnapshot()}>
          Capture Snapshot
        </Button>
      </Section>
      <Section title="Interval Mode">
        <CommandToggle id="assistant.interval" />
        <IntervalInput seconds={settings.intervalSeconds} onCommit={(intervalSeconds) => assistant.updateSettings({ intervalSeconds })} />
      </Section>
      <Button className="w-full" disabled={analyzing} onClick={() => void assistant.analyze()}>
        {analyzing ? "Analyzing..." : "Get Recommendations"}
      </Button>
    </div>
  );
}

/**
 * The interval as typed: kept as text while editing (clamping each keystroke would turn "15" into
 * "105" after the "1" became 10), committed when it is a whole number in 10–300, and repaired on blur.
 */
function IntervalInput({ seconds, onCommit }: { seconds: number; onCommit: (seconds: number) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const { min, max } = ASSISTANT_INTERVAL_S;
  const valid = (text: string) => /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;
  const invalid = draft !== null && !valid(draft);
  return (
    <div className="grid gap-1 text-sm text-slate-300">
      <label htmlFor="assistant-interval">Every (seconds)</label>
      <input
        id="assistant-interval"
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={draft ?? String(seconds)}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? "assistant-interval-error" : undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          if (valid(e.target.value)) onCommit(Number(e.target.value));
        }}
        onBlur={() => {
          if (draft !== null && !valid(draft) && draft.trim() !== "" && Number.isFinite(Number(draft))) onCommit(Number(draft));
          setDraft(null);
        }}
        className={inputClass}
      />
      {invalid ? (
        <p id="assistant-interval-error" className="text-xs text-red-400">
          Enter a number of seconds from {min} to {max}.
        </p>
      ) : null}
    </div>
  );
}
