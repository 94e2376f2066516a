// The Standard Webhooks signing secret: hidden until asked for, copyable, replaceable.
import { useState } from "react";
import { errorDetail } from "#app/lib/api/errors";
import { webhooksApi } from "#app/lib/api/webhooks";
import { Button } from "../../ui/button";
import { toast } from "../../ui/toast-store";

export function WebhookSecret() {
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function load(method: "GET" | "POST") {
    setBusy(true);
    try {
      setSecret((await (method === "POST" ? webhooksApi.rotateSecret() : webhooksApi.secret())).secret);
      if (method === "POST") toast({ title: "Signing secret replaced", description: "Update your receiver: events are now signed with the new secret." });
    } catch (error) {
      toast({ title: "Error", description: errorDetail(error, "Failed to load the signing secret."), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  }

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
          <Button variant="secondary" disabled={busy} onClick={() => void load("GET")}>
            Show signing secret
          </Button>
        )}
        <Button
          variant="ghost"
          disabled={busy}
          onClick={() => {
            if (window.confirm("Replace the signing secret? Receivers using the old one will reject new events.")) void load("POST");
          }}
        >
          Regenerate
        </Button>
      </div>
    </div>
  );
}
