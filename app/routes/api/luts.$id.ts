// GET /api/luts/:id → the LUT with its .cube text; DELETE (built-in presets answer 403).
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, idParam, json } from "../../../server/http/api";
import { deleteLut, getLut } from "../../../server/luts/service";
import type { Route } from "./+types/luts.$id";

export const loader = apiRoute<Route.LoaderArgs | Route.ActionArgs>({
  GET: async ({ request, params }) => json(await getLut(db(), (await requireUser(request)).id, idParam(params.id, "LUT"))),
  DELETE: async ({ request, params }) => {
    await deleteLut(db(), (await requireUser(request)).id, idParam(params.id, "LUT"));
    return new Response(null, { status: 204 });
  },
});
export const action = loader;
