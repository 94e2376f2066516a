// GET/POST /api/webhooks/settings {webhookUrl (http/https or null), webhookEnabled, webhookEventType}.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { getWebhookSettings, saveWebhookSettings } from "../../../server/webhooks/settings";
import { webhookSettingsSchema } from "../../schemas/webhooks";

export const loader = apiRoute({
  GET: async ({ request }) => json(await getWebhookSettings(db(), (await requireUser(request)).id)),
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await saveWebhookSettings(db(), user.id, await readJson(request, webhookSettingsSchema)));
  },
});
export const action = loader;
