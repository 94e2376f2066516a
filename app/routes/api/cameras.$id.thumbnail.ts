// GET /api/cameras/:id/thumbnail → the camera card's JPEG (owner only, cached: the URL carries its version).
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { getCameraThumbnail } from "../../../server/cameras/service";
import { apiRoute, idParam, imageResponse } from "../../../server/http/api";
import type { Route } from "./+types/cameras.$id.thumbnail";

export const loader = apiRoute<Route.LoaderArgs>({
  GET: async ({ request, params }) => imageResponse(request, await getCameraThumbnail(db(), (await requireUser(request)).id, idParam(params.id, "Camera"))),
});
export const action = loader;
