// POST /api/webhooks/test: sends a signed webhook_test event to the saved URL now → {success, receiverStatus, message}.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json } from "../../../server/http/api";
import { sendTestEvent } from "../../../server/webhooks/service";

export const loader = apiRoute({
  POST: async ({ request }) => json(await sendTestEvent(db(), (await requireUser(request)).id)),
});
export const action = loader;
