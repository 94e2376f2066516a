// Alert rules: when {object} is detected, or counting exceeds N people → e-mail and/or SMS, once per cooldown.
import { useEffect, useId, useState } from "react";
import { alertsApi } from "#app/lib/api/alerts";
import { errorDetail } from "#app/lib/api/errors";
import type { AlertRule, AlertStatus } from "#app/schemas/automation";
import { Button } from "../../ui/button";
import { AlertContacts } from "./alert-contacts";

/** What a local-vision rule watches for, worded after "When a {class or "tracked object"} …". */
const visionWhat: Record<string, string> = {
  line_crossed: "crosses a line",
  zone_entered: "enters a zone",
  zone_exited: "leaves a zone",
  zone_loitering: "loiters in a zone",
};

function describe(rule: AlertRule): string {
  const what =
    rule.kind === "detection"
      ? `${rule.object} is detected`
      : rule.kind === "people_count"
        ? `more than ${rule.threshold} people are counted`
        : `a ${rule.object || "tracked object"} ${visionWhat[rule.kind]}`;
  const how = [rule.email ? "e-mail" : null, rule.sms ? "SMS" : null].filter(Boolean).join(" and ");
  return `When ${what} → ${how}, at most every ${rule.cooldownMinutes} min`;
}

export function AlertRules() {
  const id = useId();
  const [status, setStatus] = useState<AlertStatus | null>(null);
  const [rules, setRules] = useState<AlertRule[]>([]);
  const [kind, setKind] = useState<AlertRule["kind"]>("detection");
  const [object, setObject] = useState("");
  const [threshold, setThreshold] = useState("10");
  const [email, setEmail] = useState(true);
  const [sms, setSms] = useState(false);
  const [cooldown, setCooldown] = useState("5");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    alertsApi
      .status()
      .then(setStatus)
      .catch((e: unknown) => console.warn("Failed to load alerts", e));
    alertsApi
      .rules()
      .then(setRules)
      .catch((e: unknown) => console.warn("Failed to load alert rules", e));
  }, []);

  async function add() {
    setError(null);
    try {
      const rule = await alertsApi.createRule({
        kind,
        object: kind === "detection" ? object : null,
        threshold: kind === "people_count" ? Number(threshold) : null,
        email,
        sms,
        cooldownMinutes: Number(cooldown),
      });
      setRules((list) => [...list, rule]);
      setObject("");
    } catch (e) {
      setError(errorDetail(e, "Failed to add the alert rule"));
    }
  }

  async function remove(ruleId: string) {
    try {
      await alertsApi.removeRule(ruleId);
      setRules((list) => list.filter((r) => r.id !== ruleId));
    } catch (e) {
      setError(errorDetail(e, "Failed to delete the alert rule"));
    }
  }

  if (!status) return null;
  const verified = (channel: "email" | "sms") => status.contacts.some((c) => c.channel === channel && c.verified);
  const inputClass = "rounded-md border border-ink-700 bg-ink-900 px-2 py-1.5 text-sm text-slate-100";
  return (
    <div className="space-y-3">
      <AlertContacts status={status} onStatus={setStatus} />
      {rules.length ? (
        <ul className="space-y-1" aria-label="Alert rules">
          {rules.map((rule) => (
            <li key={rule.id} className="flex items-start justify-between gap-2 text-xs text-slate-200">
              <span>{describe(rule)}</span>
              <Button variant="ghost" className="px-2 py-0.5 text-xs" onClick={() => void remove(rule.id)} aria-label={`Delete rule: ${describe(rule)}`}>
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
            <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} className={inputClass}>
              <option value="detection">an object is detected</option>
              <option value="people_count">counting exceeds</option>
            </select>
            {kind === "detection" ? (
              <input aria-label="Object" placeholder="person" value={object} onChange={(e) => setObject(e.target.value)} className={`${inputClass} w-28`} />
            ) : (
              <input aria-label="People" type="number" min={0} value={threshold} onChange={(e) => setThreshold(e.target.value)} className={`${inputClass} w-20`} />
            )}
          </div>
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
