// What the Automate tab reads and does beyond the settings: the signing secret, a test event sent now,
// and the delivery log with the reason a webhook was switched off.
import type { Selectable } from "kysely";
import type { WebhookDeliveries, WebhookDelivery, WebhookTestResult } from "#app/schemas/automation";
import type { DB } from "#db/index";
import type { WebhookDeliveriesTable } from "#db/schema";
import { ProblemError } from "../errors";
import { attemptDelivery } from "./delivery";
import { envelope, newMessageId } from "./events";
import * as q from "./queries";
import { getOrCreateSecret } from "./secret";

export const DELIVERY_LOG_SIZE = 20;

function toDelivery(row: Selectable<WebhookDeliveriesTable>): WebhookDelivery {
  return {
    id: row.id,
    event: row.event_type,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.response_status,
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
  };
}

export async function listDeliveries(db: DB, userId: string): Promise<WebhookDeliveries> {
  const [rows, settings] = await Promise.all([q.listDeliveries(db, userId, DELIVERY_LOG_SIZE), q.findSettings(db, userId)]);
  return {
    deliveries: rows.map(toDelivery),
    disabled: settings?.disabled_reason && settings.disabled_at ? { reason: settings.disabled_reason, at: settings.disabled_at.toISOString() } : null,
  };
}

/** Sends a signed webhook_test event to the saved URL now (enabled or not) and reports what the receiver said. */
export async function sendTestEvent(db: DB, userId: string): Promise<WebhookTestResult> {
  const settings = await q.findWebhook(db, userId);
  if (!settings?.webhook_url) throw new ProblemError(400, "No webhook URL", { errors: { webhookUrl: ["Please enter a webhook URL first."] } });
  const id = newMessageId();
  const payload = envelope("webhook_test", { message: "This is a test event from Framewise." });
  const secret = await getOrCreateSecret(db, userId);
  const result = await attemptDelivery(settings.webhook_url, secret, id, JSON.stringify(payload));
  await q.insertDelivery(db, {
    id,
    user_id: userId,
    event_type: payload.type,
    payload: payload as unknown as Record<string, unknown>,
    status: result.ok ? "delivered" : "failed",
    attempts: 1,
    response_status: result.status,
    last_error: result.ok ? null : result.message,
  });
  return { success: result.ok, receiverStatus: result.status, message: result.ok ? "Test successful" : result.message, deliveryId: id };
}
