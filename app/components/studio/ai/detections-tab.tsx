// The Detections tab: the source (local detection, or Moondream's), then for Moondream box detection (query edited with Apply/Cancel, interval, confidence, colour,
// thickness, max boxes, labels, multipliers, 'Save Settings for Next Time') and point detection (object,
// size, colour). Enabling one turns the other off. Follow (PTZ auto-tracking) sits under box detection, which drives it.
import { useState } from "react";
import { CONFIDENCE, DETECTION_INTERVALS_MS, MAX_BOXES, POINT_SIZE, QUERY_MAX_LENGTH } from "#app/studio/ai/detection-settings";
import type { DetectionSource } from "#app/studio/local-vision/local-vision-prefs";
import { Button } from "../../ui/button";
import { useAi, useStore } from "../studio-context";
import { LoopCallRate } from "./loop-call-rate";
import { CommandToggle } from "../command-controls";
import { FollowSection } from "./follow-section";
import { BoxStyleFields } from "./box-style-fields";
import { CountsPanel } from "./counts-panel";
import { LocalDetectionSection } from "./local-detection-section";
import { ZonesLinesSection } from "./zones-lines-section";
import { ColorField, inputClass, RangeField, secondsLabel, Section, SelectField } from "./detection-controls";

const INTERVAL_OPTIONS = DETECTION_INTERVALS_MS.map((ms) => [ms, secondsLabel(ms)] as const);
const SOURCE_OPTIONS = [
  ["local", "Local (no key, 80 everyday objects)"],
  ["moondream", "Moondream (any object you can name)"],
] as const satisfies ReadonlyArray<readonly [DetectionSource, string]>;

/** The local source's words: the spec's for the built-in detector, the model's own class count for an administrator's. */
function sourceLabel(value: DetectionSource, label: string, model: { kind: string; labels: readonly string[] }): string {
  if (value !== "local" || model.kind === "built-in") return label;
  return `Local (no key, ${model.labels.length} ${model.labels.length === 1 ? "kind" : "kinds"} of object)`;
}

export function DetectionsTab() {
  const ai = useAi();
  const source = useStore(ai.detectionSource, (s) => s.source);
  const model = useStore(ai.localVision.store, (s) => s.model);
  return (
    <div className="space-y-6">
      <fieldset className="grid gap-1 text-sm text-slate-300" data-testid="detection-source">
        <legend className="mb-1 font-medium text-white">Detect with</legend>
        {SOURCE_OPTIONS.map(([value, label]) => (
          <label key={value} className="flex items-center gap-2">
            <input type="radio" name="detection-source" value={value} checked={source === value} onChange={() => ai.chooseDetectionSource(value)} className="accent-brand-500" />
            {sourceLabel(value, label, model)}
          </label>
        ))}
      </fieldset>
      {source === "local" ? (
        <>
          <LocalDetectionSection />
          <ZonesLinesSection />
          <CountsPanel />
        </>
      ) : (
        <>
          <LoopCallRate />
          <BoxDetectionSection />
          <FollowSection />
          <PointDetectionSection />
        </>
      )}
    </div>
  );
}

function BoxQuery() {
  const { detection } = useAi();
  const query = useStore(detection.store, (s) => s.box.boxQuery);
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null) {
    return (
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="text-slate-300">
          Detecting:{" "}
          <span className="font-medium text-white" data-testid="box-query">
            {query}
          </span>
        </span>
        <Button variant="secondary" className="px-2.5 py-1 text-xs" onClick={() => setDraft(query)}>
          Edit
        </Button>
      </div>
    );
  }
  const apply = () => {
    if (detection.applyBoxQuery(draft)) setDraft(null);
  };
  return (
    <form
      className="grid gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <label className="grid gap-1 text-sm text-slate-300">
        What to detect
        <input
          autoFocus
          value={draft}
          maxLength={QUERY_MAX_LENGTH}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => e.key === "Escape" && setDraft(null)}
          placeholder="e.g. person, red car, coffee cup"
          className={inputClass}
        />
      </label>
      <div className="flex gap-2">
        <Button type="submit" className="px-3 py-1 text-xs" disabled={!draft.trim()}>
          Apply
        </Button>
        <Button variant="ghost" className="px-3 py-1 text-xs" onClick={() => setDraft(null)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function BoxDetectionSection() {
  const { detection } = useAi();
  const box = useStore(detection.store, (s) => s.box);
  const found = useStore(detection.store, (s) => (s.results?.kind === "box" ? s.results.boxes.length : null));
  return (
    <Section title="Bounding Box Detection" testId="box-detection">
      <CommandToggle id="detection.box" />
      <BoxQuery />
      {box.enabled ? (
        <p className="text-xs text-slate-400" aria-live="polite" data-testid="box-count">
          {found === null ? "Waiting for first detection..." : `${found} found`}
        </p>
      ) : null}
      <SelectField label="Detection interval" value={box.boxDetectionInterval} options={INTERVAL_OPTIONS} onChange={(v) => detection.updateBox({ boxDetectionInterval: v })} />
      <RangeField
        label="Confidence threshold"
        {...CONFIDENCE}
        value={box.boxConfidenceThreshold}
        onChange={(v) => detection.updateBox({ boxConfidenceThreshold: v })}
        format={(v) => v.toFixed(2)}
      />
      <p className="text-xs text-slate-500">Moondream returns no confidence scores, so every box it finds is kept; use Max boxes and a precise query to cut false hits.</p>
      <RangeField label="Max boxes" {...MAX_BOXES} value={box.maxBoxes} onChange={(v) => detection.updateBox({ maxBoxes: v })} />
      <BoxStyleFields />
      <Button variant="secondary" className="w-full" disabled={!box.boxQuery.trim()} onClick={() => detection.saveBoxSettings()}>
        Save Settings for Next Time
      </Button>
    </Section>
  );
}

function PointDetectionSection() {
  const { detection } = useAi();
  const point = useStore(detection.store, (s) => s.point);
  const found = useStore(detection.store, (s) => (s.results?.kind === "point" ? s.results.points.length : null));
  return (
    <Section title="Point Detection" testId="point-detection">
      <CommandToggle id="detection.point" />
      <label className="grid gap-1 text-sm text-slate-300">
        Object to point at
        <input
          value={point.object}
          maxLength={QUERY_MAX_LENGTH}
          onChange={(e) => detection.updatePoint({ object: e.target.value })}
          placeholder="e.g. person"
          className={inputClass}
        />
      </label>
      {point.enabled && !point.object.trim() ? <p className="text-xs text-amber-300">Enter an object to start point detection.</p> : null}
      {point.enabled && point.object.trim() ? (
        <p className="text-xs text-slate-400" aria-live="polite" data-testid="point-count">
          {found === null ? "Waiting for first detection..." : `${found} found`}
        </p>
      ) : null}
      <SelectField label="Point interval" value={point.interval} options={INTERVAL_OPTIONS} onChange={(v) => detection.updatePoint({ interval: v })} />
      <RangeField label="Point size" {...POINT_SIZE} value={point.size} onChange={(v) => detection.updatePoint({ size: v })} format={(v) => `${v} px`} />
      <ColorField label="Point colour" value={point.color} onChange={(v) => detection.updatePoint({ color: v })} />
    </Section>
  );
}
