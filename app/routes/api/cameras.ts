// GET /api/cameras → the user's cameras; POST {name, model, status, deviceId or thumbnail} → 201 with the camera (and its id).
import { db } from "#db/index";
import { createCamera, listCameras } from "#server/cameras/service";
import { apiRoute } from "#server/http/api";
import { imageFrame } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.cameras.list, async ({ user }) => listCameras(db(), user.id)),
  POST: handle(api.cameras.create, { bodyLimit: 8 * 1024 * 1024 }, async ({ user, body }) =>
    createCamera(db(), user.id, { ...body, thumbnail: body.thumbnail ? imageFrame(body.thumbnail) : null }),
  ),
});
export const action = loader;
