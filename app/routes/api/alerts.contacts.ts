// POST /api/alerts/contacts {channel, address}: saves the address and sends it a 6-digit code.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { startVerification } from "../../../server/alerts/service";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { contactStartSchema } from "../../schemas/automation";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await startVerification(db(), user.id, await readJson(request, contactStartSchema)));
  },
});
export const action = loader;
