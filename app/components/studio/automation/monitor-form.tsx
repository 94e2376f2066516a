// The form that starts a monitor on one of the user's IP cameras: kind, query (auto-capture), interval and
// minimum gap; for a monitor on local vision, the class, what it does (appears, enters a zone, crosses a line,
// loiters), the line or zone, the gap and an optional description. It says what the choice costs in AI calls an
// hour. The server's field errors show under their fields; anything else is a toast.
import { useEffect, useId, useState } from "react";
import type { Camera } from "#app/schemas/cameras";
import {
  DEFAULT_LOCAL_GAP_SECONDS,
  DEFAULT_MIN_GAP_SECONDS,
  isLocalKind,
  MONITOR_KIND_LABELS,
  MONITOR_KINDS,
  MONITOR_MIN_INTERVAL_SECONDS,
  type MonitorKind,
} from "#app/schemas/monitors";
import { Button } from "../../ui/button";
import { Field } from "../../ui/field";
import { useAi, useStore, useStudio } from "../studio-context";
import { LocalTriggerFields, useLocalTrigger } from "./local-trigger-fields";
import { monitorCost } from "./monitor-cost";

export function MonitorForm({ cameras }: { cameras: Camera[] }) {
  const id = useId();
  const [cameraId, setCameraId] = useState("");
  const [kind, setKind] = useState<MonitorKind>("auto_capture");
  const [query, setQuery] = useState("person");
  const [interval, setIntervalText] = useState("5");
  const [minGap, setMinGap] = useState(String(DEFAULT_MIN_GAP_SECONDS));
  const trigger = useLocalTrigger();
  const { monitors } = useStudio().automation;
  const errors = useStore(monitors.store, (s) => s.formErrors);
  const saving = useStore(monitors.store, (s) => s.saving);
  const chosen = cameraId || cameras[0]?.id || "";
  const account = useAi().account;
  const user = useStore(account.store, (s) => s.user);
  const sharedKey = useStore(account.store, (s) => s.sharedKey);
  // The server's count as the form opens (monitors and other tabs spend free calls too); it keeps polling after.
  useEffect(() => void account.refresh(), [account]);
  const local = isLocalKind(kind);
  const budget = { hasOwnKey: user?.hasMoondreamApiKey ?? false, sharedKey, used: user?.sharedKeyUsageCount ?? 0 };
  const cost = monitorCost(local ? { local, describe: trigger.describePrompt.trim() !== "", minGapSeconds: Number(minGap) } : { local, intervalSeconds: Number(interval) }, budget);

  function chooseKind(next: MonitorKind) {
    // Each kind's own default gap: local vision sees every person, so it saves at most one photo a minute by default.
    if (isLocalKind(next) !== local) setMinGap(String(isLocalKind(next) ? DEFAULT_LOCAL_GAP_SECONDS : DEFAULT_MIN_GAP_SECONDS));
    setKind(next);
  }

  function submit() {
    const intervalSeconds = Number(interval);
    const minGapSeconds = Number(minGap);
    void monitors.create(
      kind === "auto_capture"
        ? { kind, cameraId: chosen, settings: { query, intervalSeconds, minGapSeconds } }
        : kind === "people_count"
          ? { kind, cameraId: chosen, settings: { intervalSeconds, useRange: false } }
          : kind === "story"
            ? { kind, cameraId: chosen, settings: { intervalSeconds } }
            : { kind, cameraId: chosen, settings: { ...trigger.settings(), minGapSeconds } },
    );
  }

  if (!cameras.length) return <p className="text-xs text-slate-400">Add an IP camera to run monitors on it with no browser open.</p>;
  const select = "block w-full rounded-md border border-ink-700 bg-ink-900 px-3 py-2 text-sm text-slate-100";
  return (
    <form
      className="space-y-2 rounded border border-ink-800 p-2"
      aria-label="New monitor"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="space-y-1.5">
        <label htmlFor={`${id}-camera`} className="block text-sm font-medium text-slate-200">
          IP camera
        </label>
        <select
          id={`${id}-camera`}
          value={chosen}
          onChange={(e) => setCameraId(e.target.value)}
          className={select}
          aria-invalid={errors.cameraId ? true : undefined}
          aria-describedby={errors.cameraId ? `${id}-camera-error` : undefined}
        >
          {cameras.map((camera) => (
            <option key={camera.id} value={camera.id}>
              {camera.name}
            </option>
          ))}
        </select>
        {errors.cameraId ? (
          <p id={`${id}-camera-error`} className="text-sm text-red-400">
            {errors.cameraId}
          </p>
        ) : null}
      </div>
      <div className="space-y-1.5">
        <label htmlFor={`${id}-kind`} className="block text-sm font-medium text-slate-200">
          Kind
        </label>
        <select id={`${id}-kind`} value={kind} onChange={(e) => chooseKind(e.target.value as MonitorKind)} className={select}>
          {MONITOR_KINDS.map((k) => (
            <option key={k} value={k}>
              {MONITOR_KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </div>
      {kind === "auto_capture" ? (
        <Field label="Detect" id={`${id}-query`} value={query} onChange={(e) => setQuery(e.target.value)} errors={errors.query ? [errors.query] : undefined} />
      ) : null}
      {local ? (
        <LocalTriggerFields state={trigger} cameraId={chosen} errors={errors} />
      ) : (
        <Field
          label="Interval (seconds)"
          id={`${id}-interval`}
          type="number"
          min={MONITOR_MIN_INTERVAL_SECONDS}
          value={interval}
          onChange={(e) => setIntervalText(e.target.value)}
          errors={errors.intervalSeconds ? [errors.intervalSeconds] : undefined}
        />
      )}
      {kind === "auto_capture" || local ? (
        <Field
          label="Minimum gap between photos (seconds)"
          id={`${id}-gap`}
          type="number"
          min={0}
          value={minGap}
          onChange={(e) => setMinGap(e.target.value)}
          errors={errors.minGapSeconds ? [errors.minGapSeconds] : undefined}
        />
      ) : null}
      {cost ? (
        <p className="text-xs text-slate-400" data-testid="monitor-cost" aria-live="polite">
          {cost}
        </p>
      ) : null}
      <Button type="submit" disabled={saving} className="px-3 py-1 text-xs">
        {saving ? "Starting…" : "Start monitor"}
      </Button>
    </form>
  );
}
