// The user's alert contacts: an e-mail address and a phone number, each confirmed with a code sent to it.
import { useId, useState } from "react";
import type { AlertChannel, AlertStatus } from "#app/schemas/automation";
import { Button } from "../../ui/button";
import { useStore, useStudio } from "../studio-context";

const LABEL: Record<AlertChannel, { name: string; placeholder: string; type: string; missing: string }> = {
  email: {
    name: "E-mail",
    placeholder: "you@example.com",
    type: "email",
    missing: "E-mail alerts are not set up on this server. The operator must set SMTP_HOST and SMTP_FROM (plus SMTP_USER and SMTP_PASSWORD if the mail server needs them).",
  },
  sms: {
    name: "Phone (SMS)",
    placeholder: "+14155550123",
    type: "tel",
    missing: "SMS alerts are not set up on this server. The operator must set SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM (and SMS_API_URL for a provider other than Twilio).",
  },
};

function Contact({ channel, status }: { channel: AlertChannel; status: AlertStatus }) {
  const id = useId();
  const { alerts } = useStudio().automation;
  const { busy, error } = useStore(alerts.store, (s) => s.contacts[channel]);
  const label = LABEL[channel];
  const contact = status.contacts.find((c) => c.channel === channel);
  const available = channel === "email" ? status.emailAvailable : status.smsAvailable;
  const [address, setAddress] = useState("");
  const [code, setCode] = useState("");

  if (!available) return <p className="text-xs text-slate-400">{label.missing}</p>;
  return (
    <div className="space-y-1.5">
      <label htmlFor={`${id}-address`} className="block text-sm font-medium text-slate-200">
        {label.name}
      </label>
      {contact ? (
        <p className="text-xs text-slate-300">
          {contact.address} · {contact.verified ? <span className="text-emerald-400">verified</span> : <span className="text-amber-400">waiting for the code</span>}
        </p>
      ) : null}
      <div className="flex gap-2">
        <input
          id={`${id}-address`}
          type={label.type}
          value={address}
          placeholder={contact?.address ?? label.placeholder}
          onChange={(e) => setAddress(e.target.value)}
          className="min-w-0 flex-1 rounded-md border border-ink-700 bg-ink-900 px-2 py-1.5 text-sm text-slate-100"
        />
        <Button variant="secondary" className="px-2 py-1 text-xs" disabled={busy || !address.trim()} onClick={() => void alerts.contact(channel, { start: address })}>
          Send code
        </Button>
      </div>
      {contact?.pending ? (
        <div className="flex gap-2">
          <input
            aria-label={`${label.name} verification code`}
            inputMode="numeric"
            value={code}
            placeholder="6-digit code"
            onChange={(e) => setCode(e.target.value)}
            className="min-w-0 flex-1 rounded-md border border-ink-700 bg-ink-900 px-2 py-1.5 text-sm text-slate-100"
          />
          <Button className="px-2 py-1 text-xs" disabled={busy || !code.trim()} onClick={() => void alerts.contact(channel, { verify: code })}>
            Confirm
          </Button>
        </div>
      ) : null}
      {contact ? (
        <Button variant="ghost" className="px-2 py-1 text-xs" disabled={busy} onClick={() => void alerts.contact(channel, "remove")}>
          Remove
        </Button>
      ) : null}
      {error ? (
        <p role="alert" className="text-xs text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function AlertContacts({ status }: { status: AlertStatus }) {
  return (
    <div className="space-y-3">
      <Contact channel="email" status={status} />
      <Contact channel="sms" status={status} />
    </div>
  );
}
