// Alert rules: when {object} is detected, counting exceeds N people, or a local-vision event happens on a line or
// zone (for a class) → e-mail and/or SMS, once per cooldown. Field errors from the server show under their field.
import { useEffect, useId, useState } from "react";
import { ALERT_RULE_KINDS, type AlertRule } from "#app/schemas/automation";
import { Button } from "../../ui/button";
import { useStore, useStudio } from "../studio-context";
import { AlertContacts } from "./alert-contacts";
import { ALERT_KIND_LABELS, describeRule as describe, isVisionKind } from "./alert-rule-text";
import { AlertTargetFields, type VisionTarget } from "./alert-target-fields";

const NO_TARGET: VisionTarget = { cameraId: "", targetId: "", object: "" };

export function AlertRules() {
  const id = useId();
  const { alerts } = useStudio().automation;
  const status = useStore(alerts.store, (s) => s.status);
  const rules = useStore(alerts.store, (s) => s.rules);
  const error = useStore(alerts.store, (s) => s.error);
  const fieldErrors = useStore(alerts.store, (s) => s.fieldErrors);
  const [kind, setKind] = useState<AlertRule["kind"]>("detection");
  const [object, setObject] = useState("");
  const [threshold, setThreshold] = useState("10");
  const [email, setEmail] = useState(true);
  const [sms, setSms] = useState(false);
  const [cooldown, setCooldown] = useState("5");
  const [target, setTarget] = useState<VisionTarget>(NO_TARGET);

  useEffect(() => void alerts.load(), [alerts]);

  async function add() {
    const vision = isVisionKind(kind);
    const added = await alerts.addRule({
      kind,
      object: kind === "detection" ? object : vision ? target.object.trim() || null : null,
      threshold: kind === "people_count" ? Number(threshold) : null,
      targetId: vision ? target.targetId || null : null,
      email,
      sms,
      cooldownMinutes: Number(cooldown),
    });
    if (!added) return;
    setObject("");
    setTarget((t) => ({ ...t, targetId: "", object: "" }));
  }

  if (!status) return null;
  const verified = (channel: "email" | "sms") => status.contacts.some((c) => c.channel === channel && c.verified);
  const inputClass = "rounded-md border border-ink-700 bg-ink-900 px-2 py-1.5 text-sm text-slate-100";
  return (
    <div className="space-y-3">
      <AlertContacts status={status} />
      {rules.length ? (
        <ul className="space-y-1" aria-label="Alert rules">
          {rules.map((rule) => (
            <li key={rule.id} className="flex items-start justify-between gap-2 text-xs text-slate-200">
              <span>{describe(rule)}</span>
              <Button variant="ghost" className="px-2 py-0.5 text-xs" onClick={() => void alerts.removeRule(rule.id)} aria-label={`Delete rule: ${describe(rule)}`}>
                Delete
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-slate-400">No alert rules yet</p>
      )}
      {status.emailAvailable || status.smsAvailable ? (
        <form
          className="space-y-2 rounded border border-ink-800 p-2"
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
        >
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-200">
            <label htmlFor={`${id}-kind`}>When</label>
            <select
              id={`${id}-kind`}
              value={kind}
              onChange={(e) => {
                setKind(e.target.value as typeof kind);
                alerts.clearFieldErrors();
              }}
              className={inputClass}
            >
              {ALERT_RULE_KINDS.map((k) => (
                <option key={k} value={k}>
                  {ALERT_KIND_LABELS[k]}
                </option>
              ))}
            </select>
            {kind === "detection" ? (
              <input aria-label="Object" placeholder="person" value={object} onChange={(e) => setObject(e.target.value)} className={`${inputClass} w-28`} />
            ) : kind === "people_count" ? (
              <input aria-label="People" type="number" min={0} value={threshold} onChange={(e) => setThreshold(e.target.value)} className={`${inputClass} w-20`} />
            ) : null}
            {fieldErrors.object && !isVisionKind(kind) ? <p className="w-full text-xs text-red-400">{fieldErrors.object}</p> : null}
            {fieldErrors.threshold ? <p className="w-full text-xs text-red-400">{fieldErrors.threshold}</p> : null}
          </div>
          {isVisionKind(kind) ? <AlertTargetFields id={id} kind={kind} value={target} onChange={setTarget} errors={fieldErrors} /> : null}
          <div className="flex flex-wrap items-center gap-3 text-sm text-slate-200">
            <label className="flex items-center gap-1">
              <input type="checkbox" checked={email} disabled={!status.emailAvailable} onChange={(e) => setEmail(e.target.checked)} /> E-mail
            </label>
            <label className="flex items-center gap-1">
              <input type="checkbox" checked={sms} disabled={!status.smsAvailable} onChange={(e) => setSms(e.target.checked)} /> SMS
            </label>
            <label className="flex items-center gap-1">
              every
              <input aria-label="Cooldown in minutes" type="number" min={1} value={cooldown} onChange={(e) => setCooldown(e.target.value)} className={`${inputClass} w-16`} />
              min at most
            </label>
            {fieldErrors.email ? <p className="w-full text-xs text-red-400">{fieldErrors.email}</p> : null}
          </div>
          {(email && !verified("email")) || (sms && !verified("sms")) ? (
            <p className="text-xs text-amber-300">Alerts go only to a verified address or number: confirm yours above.</p>
          ) : null}
          <Button type="submit" className="px-3 py-1 text-xs">
            Add rule
          </Button>
          {error ? (
            <p role="alert" className="text-xs text-red-400">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
