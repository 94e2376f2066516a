// GET /api/webhooks/deliveries → the last 20 deliveries and, if delivery switched the webhook off, why.
import { db } from "#db/index";
import { listDeliveries } from "#server/webhooks/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.webhooks.deliveries, async ({ user }) => listDeliveries(db(), user.id)),
});
export const action = loader;
