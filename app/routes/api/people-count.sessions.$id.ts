// /api/people-count/sessions/:id — GET with stats, DELETE with its snapshots.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { deleteSession, getSession } from "../../../server/counting/service";
import { apiRoute, idParam, json } from "../../../server/http/api";
import type { Route } from "./+types/people-count.sessions.$id";

export const loader = apiRoute<Route.LoaderArgs | Route.ActionArgs>({
  GET: async ({ request, params }) => json(await getSession(db(), (await requireUser(request)).id, idParam(params.id, "Session"))),
  DELETE: async ({ request, params }) => {
    await deleteSession(db(), (await requireUser(request)).id, idParam(params.id, "Session"));
    return new Response(null, { status: 204 });
  },
});
export const action = loader;
