// GET /api/cameras → the user's cameras; POST {name, model, status, deviceId or thumbnail} → 201 with the camera (and its id).
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { createCamera, listCameras } from "../../../server/cameras/service";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { cameraCreateSchema } from "../../schemas/cameras";

export const loader = apiRoute({
  GET: async ({ request }) => json(await listCameras(db(), (await requireUser(request)).id)),
  POST: async ({ request }) => {
    const user = await requireUser(request);
    const input = await readJson(request, cameraCreateSchema, 8 * 1024 * 1024);
    return json(await createCamera(db(), user.id, input), { status: 201 });
  },
});
export const action = loader;
