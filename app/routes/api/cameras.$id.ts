// /api/cameras/:id — GET one, PUT {name} or {thumbnail}, PATCH {videoWidth, videoHeight, frameRate}, DELETE.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { deleteCamera, getCamera, updateCamera, updateVideoSettings } from "../../../server/cameras/service";
import { apiRoute, idParam, json, readJson } from "../../../server/http/api";
import { cameraUpdateSchema, cameraVideoSettingsSchema } from "../../schemas/cameras";
import type { Route } from "./+types/cameras.$id";

export const loader = apiRoute<Route.LoaderArgs | Route.ActionArgs>({
  GET: async ({ request, params }) => json(await getCamera(db(), (await requireUser(request)).id, idParam(params.id, "Camera"))),
  PUT: async ({ request, params }) => {
    const user = await requireUser(request);
    const id = idParam(params.id, "Camera");
    return json(await updateCamera(db(), user.id, id, await readJson(request, cameraUpdateSchema, 8 * 1024 * 1024)));
  },
  PATCH: async ({ request, params }) => {
    const user = await requireUser(request);
    const id = idParam(params.id, "Camera");
    return json(await updateVideoSettings(db(), user.id, id, await readJson(request, cameraVideoSettingsSchema)));
  },
  DELETE: async ({ request, params }) => {
    const user = await requireUser(request);
    await deleteCamera(db(), user.id, idParam(params.id, "Camera"));
    return new Response(null, { status: 204 });
  },
});
export const action = loader;
