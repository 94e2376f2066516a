// POST /api/webhooks/test: sends a signed webhook_test event to the saved URL now → {success, receiverStatus, message}.
import { db } from "#db/index";
import { sendTestEvent } from "#server/webhooks/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.webhooks.sendTest, async ({ user }) => sendTestEvent(db(), user.id)),
});
export const action = loader;
