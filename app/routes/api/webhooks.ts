// The webhooks operations' handlers (app/schemas/operations/webhooks.ts), one per catalogue entry.
import { db } from "#db/index";
import { getWebhookSettings, saveWebhookSettings } from "#server/webhooks/settings";
import { handle } from "#server/http/operation";
import { sendTestEvent, listDeliveries } from "#server/webhooks/service";
import { getOrCreateSecret, regenerateSecret } from "#server/webhooks/secret";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

export const webhooks = {
  // GET/POST /api/webhooks/settings {webhookUrl (http/https or null), webhookEnabled, webhookEventType}.
  settings: handle(api.webhooks.settings, async ({ user }) => getWebhookSettings(db(), user.id)),
  saveSettings: handle(api.webhooks.saveSettings, async ({ user, body }) => saveWebhookSettings(db(), user.id, body)),
  // POST /api/webhooks/test: sends a signed webhook_test event to the saved URL now → {success, receiverStatus, message}.
  sendTest: handle(api.webhooks.sendTest, async ({ user }) => sendTestEvent(db(), user.id)),
  // GET /api/webhooks/secret → {secret} (created on first read); POST regenerates it.
  secret: handle(api.webhooks.secret, async ({ user }) => ({ secret: await getOrCreateSecret(db(), user.id) })),
  rotateSecret: handle(api.webhooks.rotateSecret, async ({ user }) => ({ secret: await regenerateSecret(db(), user.id) })),
  // GET /api/webhooks/deliveries → the last 20 deliveries and, if delivery switched the webhook off, why.
  deliveries: handle(api.webhooks.deliveries, async ({ user }) => listDeliveries(db(), user.id)),
} satisfies ResourceHandlers<typeof api.webhooks>;
