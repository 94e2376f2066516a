// GET/POST /api/webhooks/settings {webhookUrl (http/https or null), webhookEnabled, webhookEventType}.
import { db } from "#db/index";
import { getWebhookSettings, saveWebhookSettings } from "#server/webhooks/settings";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.webhooks.settings, async ({ user }) => getWebhookSettings(db(), user.id)),
  POST: handle(api.webhooks.saveSettings, async ({ user, body }) => saveWebhookSettings(db(), user.id, body)),
});
export const action = loader;
