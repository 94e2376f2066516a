// DELETE /api/presets/:id
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { deletePreset } from "../../../server/cameras/service";
import { apiRoute, idParam } from "../../../server/http/api";
import type { Route } from "./+types/presets.$id";

export const loader = apiRoute<Route.ActionArgs>({
  DELETE: async ({ request, params }) => {
    await deletePreset(db(), (await requireUser(request)).id, idParam(params.id, "Preset"));
    return new Response(null, { status: 204 });
  },
});
export const action = loader;
