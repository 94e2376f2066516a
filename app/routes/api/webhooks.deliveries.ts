// GET /api/webhooks/deliveries → the last 20 deliveries and, if delivery switched the webhook off, why.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json } from "../../../server/http/api";
import { listDeliveries } from "../../../server/webhooks/service";

export const loader = apiRoute({
  GET: async ({ request }) => json(await listDeliveries(db(), (await requireUser(request)).id)),
});
export const action = loader;
