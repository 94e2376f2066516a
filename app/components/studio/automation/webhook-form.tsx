// The webhook settings form (URL, on/off, simple or detailed events) with its Test button.
import { useEffect, useId } from "react";
import type { WebhookSettings } from "#app/schemas/webhooks";
import { Button } from "../../ui/button";
import { Field } from "../../ui/field";
import { useStore, useStudio } from "../studio-context";

export function WebhookForm() {
  const id = useId();
  const { webhooks } = useStudio().automation;
  const { url, enabled, eventType } = useStore(webhooks.store, (s) => s.draft);
  const urlError = useStore(webhooks.store, (s) => s.urlError);
  const saving = useStore(webhooks.store, (s) => s.saving);
  const testing = useStore(webhooks.store, (s) => s.testing);
  const loaded = useStore(webhooks.store, (s) => s.loaded);

  useEffect(() => void webhooks.loadSettings(), [webhooks]);

  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        void webhooks.submit();
      }}
    >
      <Field
        label="Webhook URL"
        id={`${id}-url`}
        type="url"
        value={url}
        disabled={!loaded}
        errors={urlError ? [urlError] : undefined}
        onChange={(event) => webhooks.edit({ url: event.target.value })}
        placeholder="https://hooks.example.com/framewise"
      />
      <label className="flex items-center gap-2 text-sm text-slate-200">
        <input type="checkbox" checked={enabled} disabled={!loaded} onChange={(event) => webhooks.edit({ enabled: event.target.checked })} />
        Send events to this webhook
      </label>
      <div className="space-y-1.5">
        <label htmlFor={`${id}-type`} className="block text-sm font-medium text-slate-200">
          Event type
        </label>
        <select
          id={`${id}-type`}
          value={eventType}
          disabled={!loaded}
          onChange={(event) => webhooks.edit({ eventType: event.target.value as WebhookSettings["webhookEventType"] })}
          className="block w-full rounded-md border border-ink-700 bg-ink-900 px-3 py-2 text-sm text-slate-100"
        >
          <option value="simple">Simple (detection_made)</option>
          <option value="detailed">Detailed (detection_details, boxes, camera, photo link)</option>
        </select>
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={saving || !loaded}>
          {saving ? "Saving…" : "Save"}
        </Button>
        <Button variant="secondary" onClick={() => void webhooks.test()} disabled={!url.trim() || testing}>
          {testing ? "Testing…" : "Test"}
        </Button>
      </div>
    </form>
  );
}
