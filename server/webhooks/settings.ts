// Per-user webhook settings (what the Automate tab edits; delivery is the automation service's job).
import type { WebhookSettings } from "#app/schemas/webhooks";
import type { DB } from "#db/index";
import { ProblemError } from "../errors";
import * as q from "./queries";
import { webhookUrlProblem } from "./url-check";

export async function getWebhookSettings(db: DB, userId: string): Promise<WebhookSettings> {
  const row = await q.findSettings(db, userId);
  return { webhookUrl: row?.webhook_url ?? null, webhookEnabled: row?.webhook_enabled ?? false, webhookEventType: row?.webhook_event_type ?? "simple" };
}

export async function saveWebhookSettings(db: DB, userId: string, input: WebhookSettings): Promise<WebhookSettings> {
  const problem = input.webhookUrl ? await webhookUrlProblem(input.webhookUrl) : null;
  if (problem) throw new ProblemError(422, problem, { errors: { webhookUrl: [problem] } });
  const values = {
    webhook_url: input.webhookUrl,
    webhook_enabled: input.webhookEnabled,
    webhook_event_type: input.webhookEventType,
    updated_at: new Date(),
    // Turning the webhook (back) on is the user's answer to an automatic switch-off: start a fresh run.
    ...(input.webhookEnabled ? { disabled_reason: null, disabled_at: null, failure_streak: 0, failing_since: null } : {}),
  };
  await q.upsertSettings(db, userId, values);
  return getWebhookSettings(db, userId);
}
