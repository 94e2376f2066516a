// POST /api/people-count/sessions/:id/finish → the finished session.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { finishSession } from "../../../server/counting/service";
import { apiRoute, idParam, json } from "../../../server/http/api";
import type { Route } from "./+types/people-count.sessions.$id.finish";

export const loader = apiRoute<Route.ActionArgs>({
  POST: async ({ request, params }) => json(await finishSession(db(), (await requireUser(request)).id, idParam(params.id, "Session"))),
});
export const action = loader;
