// GET /api/alerts → which channels the server can send on, and the user's contacts.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { alertStatus } from "../../../server/alerts/service";
import { apiRoute, json } from "../../../server/http/api";

export const loader = apiRoute({
  GET: async ({ request }) => json(await alertStatus(db(), (await requireUser(request)).id)),
});
export const action = loader;
