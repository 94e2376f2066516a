// The Standard Webhooks signing secret: hidden until asked for, copyable, replaceable.
import { useEffect } from "react";
import { Button } from "../../ui/button";
import { toast } from "../../ui/toast-store";
import { useStore, useStudio } from "../studio-context";

export function WebhookSecret() {
  const { webhooks } = useStudio().automation;
  const secret = useStore(webhooks.store, (s) => s.secret);
  const busy = useStore(webhooks.store, (s) => s.secretBusy);
  useEffect(() => () => webhooks.hideSecret(), [webhooks]);

  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-400">
        Events are signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature). Verify them with this secret; deduplicate on webhook-id.
      </p>
      {secret ? (
        <code data-testid="webhook-secret" className="block rounded bg-ink-800 p-2 text-xs break-all text-slate-100">
          {secret}
        </code>
      ) : null}
      <div className="flex gap-2">
        {secret ? (
          <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(secret).then(() => toast({ title: "Copied!" }))}>
            Copy
          </Button>
        ) : (
          <Button variant="secondary" disabled={busy} onClick={() => void webhooks.loadSecret("GET")}>
            Show signing secret
          </Button>
        )}
        <Button
          variant="ghost"
          disabled={busy}
          onClick={() => {
            if (window.confirm("Replace the signing secret? Receivers using the old one will reject new events.")) void webhooks.loadSecret("POST");
          }}
        >
          Regenerate
        </Button>
      </div>
    </div>
  );
}
