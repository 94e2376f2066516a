// POST /api/alerts/contacts/verify {channel, code}: confirms the address the code was sent to.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { confirmVerification } from "../../../server/alerts/service";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { contactVerifySchema } from "../../schemas/automation";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const user = await requireUser(request);
    const input = await readJson(request, contactVerifySchema);
    return json(await confirmVerification(db(), user.id, input.channel, input.code));
  },
});
export const action = loader;
