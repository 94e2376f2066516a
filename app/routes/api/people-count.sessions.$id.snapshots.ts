// GET /api/people-count/sessions/:id/snapshots → the session's snapshots in time order.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { listSnapshots } from "../../../server/counting/service";
import { apiRoute, idParam, json } from "../../../server/http/api";
import type { Route } from "./+types/people-count.sessions.$id.snapshots";

export const loader = apiRoute<Route.LoaderArgs>({
  GET: async ({ request, params }) => json(await listSnapshots(db(), (await requireUser(request)).id, idParam(params.id, "Session"))),
});
export const action = loader;
