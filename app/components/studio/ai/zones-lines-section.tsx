// The Detections tab's zones and lines for the selected camera: draw a line or a zone on the preview, each one's
// live counter, and a small form to rename it, pick its classes, anchor and timing, what its events do (a photo,
// a Moondream description), reset its counts or delete it. The drawing itself happens on the preview (regions-overlay).
import { useEffect, useId, useState, type ReactNode } from "react";
import { ANCHORS, DEFAULT_DESCRIBE_PROMPT, type Line, type Zone } from "#app/schemas/local-vision";
import type { RegionKind } from "#app/studio/local-vision/regions-controller";
import { Button } from "../../ui/button";
import { useAi, useStore } from "../studio-context";
import { ClassPicker } from "./class-picker";
import { inputClass, Section, SelectField, Toggle } from "./detection-controls";
import { RegionInspector } from "./region-inspector";
import { SessionCounts } from "./session-counts";
import { useRegionCounters } from "./use-region-counters";

const ANCHOR_NAMES: Record<(typeof ANCHORS)[number], string> = {
  "bottom-centre": "Bottom centre (where a person stands)",
  centre: "Centre",
  "top-centre": "Top centre",
  "left-centre": "Left centre",
  "right-centre": "Right centre",
};
const ANCHOR_OPTIONS = ANCHORS.map((anchor) => [anchor, ANCHOR_NAMES[anchor]] as const);
const smallButton = "px-2.5 py-1 text-xs";

export function ZonesLinesSection() {
  const { regions } = useAi();
  const cameraId = useStore(regions.store, (s) => s.cameraId);
  useEffect(() => {
    void regions.load({ fresh: true });
  }, [regions, cameraId]);
  return (
    <Section title="Zones & Lines" testId="zones-lines">
      <p className="text-xs text-slate-400">Lines count what crosses them, in and out; zones count who is inside. Drawn on the picture, saved with this camera.</p>
      <CountingNote />
      <DrawControls />
      <RegionList />
    </Section>
  );
}

function CountingNote() {
  const { localVision } = useAi();
  const running = useStore(localVision.store, (s) => s.enabled || s.countingPeople);
  if (running) return null;
  return (
    <p className="text-xs text-amber-300" data-testid="regions-counting-off">
      Counting runs while Local Detection (or Count People Locally) is on.
    </p>
  );
}

function DrawControls() {
  const { regions } = useAi();
  const cameraId = useStore(regions.store, (s) => s.cameraId);
  const draft = useStore(regions.store, (s) => s.draft);
  if (!draft) {
    return (
      <div className="flex gap-2">
        <Button variant="secondary" className={smallButton} disabled={!cameraId} onClick={() => regions.startDrawing("line")}>
          Draw line
        </Button>
        <Button variant="secondary" className={smallButton} disabled={!cameraId} onClick={() => regions.startDrawing("zone")}>
          Draw zone
        </Button>
      </div>
    );
  }
  const hint =
    draft.kind === "line"
      ? "Drag across the picture (or click its two ends). The arrow points to the side crossing into counts as in."
      : "Click the zone's corners on the picture; click the first corner or Done to close it.";
  return (
    <div className="grid gap-2" data-testid="region-drawing">
      <p className="text-xs text-slate-300" aria-live="polite">
        {hint} Esc cancels.
      </p>
      <ShapeProblem />
      <div className="flex gap-2">
        {draft.kind === "zone" ? (
          <Button className={smallButton} disabled={draft.points.length < 3} onClick={() => void regions.finishDrawing()}>
            Done
          </Button>
        ) : null}
        <Button variant="ghost" className={smallButton} onClick={() => regions.cancelDrawing()}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

/** Why the zone being drawn or moved was not taken (its edges cross, it encloses nothing), under its drawing hint or its form. */
function ShapeProblem() {
  const { regions } = useAi();
  const problem = useStore(regions.store, (s) => s.shapeProblem);
  if (!problem) return null;
  return (
    <p role="alert" className="text-xs text-red-400" data-testid="zone-shape-problem">
      {problem}
    </p>
  );
}

function RegionList() {
  const { regions } = useAi();
  const current = useStore(regions.store, (s) => (s.cameraId ? s.byCamera[s.cameraId] : undefined));
  const loading = useStore(regions.store, (s) => s.loading);
  const editing = useStore(regions.store, (s) => s.editing);
  const counters = useRegionCounters();
  if (!current) return loading ? <p className="text-xs text-slate-400">Loading zones and lines…</p> : null;
  if (current.lines.length === 0 && current.zones.length === 0) return <p className="text-xs text-slate-500">No zones or lines on this camera yet.</p>;
  const row = (kind: RegionKind, region: Line | Zone, counter: string) => {
    const open = editing?.kind === kind && editing.id === region.id;
    return (
      <li key={region.id} className="grid gap-2 rounded-md border border-ink-700 p-2" data-testid={`${kind}-row`} data-name={region.name}>
        <div className="flex items-center justify-between gap-2">
          <span className="text-sm text-slate-200 tabular-nums">
            {/* The overlay's colour for the kind; its name for screen readers. */}
            <span aria-hidden="true" className={`mr-2 inline-block h-2.5 w-2.5 rounded-sm ${kind === "line" ? "bg-yellow-400" : "bg-sky-400"}`} />
            <span className="sr-only">{kind === "line" ? "Line" : "Zone"}: </span>
            <span data-testid={`${kind}-row-counter`}>{counter}</span>
          </span>
          <Button
            variant="ghost"
            className={smallButton}
            aria-expanded={open}
            aria-label={`${open ? "Close" : "Edit"} ${region.name}`}
            onClick={() => regions.edit(open ? null : { kind, id: region.id })}
          >
            {open ? "Close" : "Edit"}
          </Button>
        </div>
        <SessionCounts kind={kind} id={region.id} />
        <RegionInspector kind={kind} id={region.id} name={region.name} />
        {open ? <RegionForm key={region.id} kind={kind} region={region} /> : null}
      </li>
    );
  };
  return (
    <ul className="grid gap-2">
      {current.lines.map((line) => row("line", line, counters.text[line.id] ?? line.name))}
      {current.zones.map((zone) => row("zone", zone, counters.text[zone.id] ?? zone.name))}
    </ul>
  );
}

function NumberField({ label, value, min, max, onChange, hint }: { label: string; value: number; min: number; max: number; onChange: (v: number) => void; hint?: ReactNode }) {
  const id = useId();
  return (
    <div className="grid gap-1 text-sm text-slate-300">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={min}
        max={max}
        step={1}
        value={value}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(Math.round(Number(e.target.value)))}
        className={inputClass}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A line's or zone's settings, saved together; its points are edited by dragging them on the picture. */
function RegionForm({ kind, region }: { kind: RegionKind; region: Line | Zone }) {
  const { regions } = useAi();
  const [name, setName] = useState(region.name);
  const [labels, setLabels] = useState<string[]>(region.labels);
  const [anchor, setAnchor] = useState(region.anchor);
  const [frames, setFrames] = useState("settleFrames" in region ? region.settleFrames : region.inertia);
  const [loiter, setLoiter] = useState("loiterSeconds" in region ? region.loiterSeconds : 0);
  const [capturePhoto, setCapturePhoto] = useState(region.capturePhoto);
  const [describePrompt, setDescribePrompt] = useState<string | null>(region.describePrompt);
  const [saving, setSaving] = useState(false);
  const nameId = useId();
  const promptId = useId();
  const what = kind === "line" ? "line" : "zone";
  const save = async () => {
    setSaving(true);
    const common = { name, labels, anchor, capturePhoto, describePrompt: describePrompt?.trim() ? describePrompt : null };
    await (kind === "line"
      ? regions.updateLine(region.id, { ...common, settleFrames: frames })
      : regions.updateZone(region.id, { ...common, inertia: frames, loiterSeconds: loiter }));
    setSaving(false);
  };
  return (
    <form
      className="grid gap-3"
      data-testid="region-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p className="text-xs text-slate-400">Drag its points on the picture to move it.</p>
      {kind === "zone" ? <ShapeProblem /> : null}
      <div className="grid gap-1 text-sm text-slate-300">
        <label htmlFor={nameId}>Name</label>
        <input id={nameId} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} className={inputClass} />
      </div>
      {kind === "line" ? (
        <p className="text-xs text-slate-400" data-testid="line-form-explained">
          Every time someone crosses the line counts: towards the arrow as in, the other way as out. Someone who walks in and back out counts once each way.
        </p>
      ) : null}
      <ClassPicker legend={kind === "line" ? "Objects counted" : "Objects watched"} value={labels} onChange={setLabels} />
      <div className="grid gap-1">
        <SelectField label="Point of the box that counts" value={anchor} options={ANCHOR_OPTIONS} onChange={setAnchor} />
        <p className="text-xs text-slate-500">
          The point of each detected box that has to {kind === "line" ? "cross the line" : "be inside the zone"}. For people, where they stand.
        </p>
      </div>
      {kind === "line" ? (
        <NumberField
          label="Frames past the line before it counts"
          value={frames}
          min={1}
          max={30}
          onChange={setFrames}
          hint="1 counts someone as soon as they are seen past the line. Raise it to ignore people who step over and straight back; someone who walks on out of the picture is counted either way."
        />
      ) : (
        <>
          <NumberField
            label="Frames to enter or leave"
            value={frames}
            min={1}
            max={30}
            onChange={setFrames}
            hint="How many frames in a row someone must be seen inside to count as entering, and outside to count as leaving. Higher ignores people who only brush the edge."
          />
          <NumberField
            label="Loitering after (seconds)"
            value={loiter}
            min={0}
            max={86400}
            onChange={setLoiter}
            hint="Sends a loitering event when someone has stayed inside this long. 0: never."
          />
        </>
      )}
      <Toggle label="Save a photo of each event" checked={capturePhoto} onChange={setCapturePhoto} />
      <Toggle
        label="Describe with Moondream"
        hint="One Moondream call per event, on the event's picture."
        checked={describePrompt !== null}
        onChange={(on) => setDescribePrompt(on ? DEFAULT_DESCRIBE_PROMPT : null)}
      />
      {describePrompt !== null ? (
        <div className="grid gap-1 text-sm text-slate-300">
          <label htmlFor={promptId}>Question for Moondream</label>
          <textarea id={promptId} rows={2} maxLength={500} value={describePrompt} onChange={(e) => setDescribePrompt(e.target.value)} className={inputClass} />
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" className={smallButton} disabled={saving}>
          Save
        </Button>
        <Button
          variant="secondary"
          className={smallButton}
          onClick={() => {
            if (window.confirm(`Reset the counts of "${region.name}"? Its saved counts are deleted.`)) void regions.reset(kind, region.id);
          }}
        >
          Reset counts
        </Button>
        <Button
          variant="destructive"
          className={smallButton}
          onClick={() => {
            if (window.confirm(`Delete the ${what} "${region.name}" and its counts?`)) void regions.remove(kind, region.id);
          }}
        >
          Delete
        </Button>
      </div>
    </form>
  );
}
