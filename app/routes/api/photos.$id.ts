// GET /api/photos/:id → the photo with imageData (a data URL, as the studio's gallery reads it); DELETE.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, idParam, json } from "../../../server/http/api";
import { deletePhoto, getPhotoWithImage } from "../../../server/photos/service";
import type { Route } from "./+types/photos.$id";

export const loader = apiRoute<Route.LoaderArgs | Route.ActionArgs>({
  GET: async ({ request, params }) => json(await getPhotoWithImage(db(), (await requireUser(request)).id, idParam(params.id, "Photo"))),
  DELETE: async ({ request, params }) => {
    await deletePhoto(db(), (await requireUser(request)).id, idParam(params.id, "Photo"));
    return new Response(null, { status: 204 });
  },
});
export const action = loader;
