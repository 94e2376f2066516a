// POST /api/alerts/contacts/verify {channel, code}: confirms the address the code was sent to.
import { db } from "#db/index";
import { confirmVerification } from "#server/alerts/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.alerts.verifyContact, async ({ user, body }) => confirmVerification(db(), user.id, body.channel, body.code)),
});
export const action = loader;
