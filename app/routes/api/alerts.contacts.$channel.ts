// DELETE /api/alerts/contacts/:channel (email or sms): forgets that contact.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { removeContact } from "../../../server/alerts/service";
import { notFound } from "../../../server/errors";
import { apiRoute, json } from "../../../server/http/api";

export const loader = apiRoute<{ request: Request; params: { channel?: string } }>({
  DELETE: async ({ request, params }) => {
    const user = await requireUser(request);
    if (params.channel !== "email" && params.channel !== "sms") throw notFound("Contact");
    return json(await removeContact(db(), user.id, params.channel));
  },
});
export const action = loader;
