// The webhook settings form (URL, on/off, simple or detailed events) with its Test button.
import { useEffect, useId, useState } from "react";
import { errorDetail, problemFieldErrors } from "#app/lib/api/errors";
import { webhooksApi } from "#app/lib/api/webhooks";
import type { WebhookSettings } from "#app/schemas/webhooks";
import { Button } from "../../ui/button";
import { Field } from "../../ui/field";
import { toast } from "../../ui/toast-store";

export function WebhookForm({ onChanged }: { onChanged: () => void }) {
  const id = useId();
  const [saved, setSaved] = useState<WebhookSettings | null>(null);
  const [url, setUrl] = useState("");
  /** The server's reason for refusing the URL (e.g. a private address), shown under the field. */
  const [urlError, setUrlError] = useState<string | undefined>();
  const [enabled, setEnabled] = useState(false);
  const [eventType, setEventType] = useState<WebhookSettings["webhookEventType"]>("simple");
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  // Fields stay disabled until the saved settings arrive: typing earlier would be overwritten by them.
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    webhooksApi
      .settings()
      .then((settings) => {
        setSaved(settings);
        setUrl(settings.webhookUrl ?? "");
        setEnabled(settings.webhookEnabled);
        setEventType(settings.webhookEventType);
      })
      .catch((error: unknown) => console.warn("Failed to load webhook settings", error))
      .finally(() => setLoaded(true));
  }, []);

  const current = (): WebhookSettings => ({ webhookUrl: url.trim() || null, webhookEnabled: enabled, webhookEventType: eventType });

  async function save(): Promise<WebhookSettings | null> {
    setSaving(true);
    try {
      const result = await webhooksApi.saveSettings(current());
      setSaved(result);
      setUrlError(undefined);
      onChanged();
      return result;
    } catch (error) {
      const fieldError = problemFieldErrors(error).webhookUrl?.[0];
      setUrlError(fieldError);
      if (!fieldError) toast({ title: "Error", description: errorDetail(error, "Failed to save webhook settings."), variant: "destructive" });
      return null;
    } finally {
      setSaving(false);
    }
  }

  async function test() {
    if (!url.trim()) {
      toast({ title: "No webhook URL", description: "Please enter a webhook URL first.", variant: "destructive" });
      return;
    }
    setTesting(true);
    try {
      // The server tests the saved URL: save an edited one first so the test checks what is on screen.
      if (saved?.webhookUrl !== (url.trim() || null) && !(await save())) return;
      const result = await webhooksApi.sendTest();
      if (result.success) toast({ title: "Test successful", description: `The receiver answered ${result.receiverStatus}.` });
      else toast({ title: "Test failed", description: result.message, variant: "destructive" });
    } catch (error) {
      toast({ title: "Test failed", description: errorDetail(error, "Failed to send test webhook."), variant: "destructive" });
    } finally {
      setTesting(false);
      onChanged();
    }
  }

  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        void save().then((result) => result && toast({ title: "Webhook settings saved" }));
      }}
    >
      <Field
        label="Webhook URL"
        id={`${id}-url`}
        type="url"
        value={url}
        disabled={!loaded}
        errors={urlError ? [urlError] : undefined}
        onChange={(event) => {
          setUrl(event.target.value);
          setUrlError(undefined);
        }}
        placeholder="https://hooks.example.com/framewise"
      />
      <label className="flex items-center gap-2 text-sm text-slate-200">
        <input type="checkbox" checked={enabled} disabled={!loaded} onChange={(event) => setEnabled(event.target.checked)} />
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
          onChange={(event) => setEventType(event.target.value as WebhookSettings["webhookEventType"])}
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
        <Button variant="secondary" onClick={() => void test()} disabled={!url.trim() || testing}>
          {testing ? "Testing…" : "Test"}
        </Button>
      </div>
    </form>
  );
}
