// /api/cameras/:id — GET one, PUT {name} or {thumbnail}, PATCH {videoWidth, videoHeight, frameRate}, DELETE.
import { db } from "#db/index";
import { deleteCamera, getCamera, updateCamera, updateVideoSettings } from "#server/cameras/service";
import { apiRoute } from "#server/http/api";
import { imageFrame } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { retireCameraMonitors } from "#server/monitors/service";
import { api } from "../../schemas/operations/index";

const resource = { resource: "Camera" };

export const loader = apiRoute({
  GET: handle(api.cameras.get, resource, async ({ user, params }) => getCamera(db(), user.id, params.id)),
  PUT: handle(api.cameras.update, { ...resource, bodyLimit: 8 * 1024 * 1024 }, async ({ user, params, body }) =>
    updateCamera(db(), user.id, params.id, { ...body, thumbnail: body.thumbnail ? imageFrame(body.thumbnail) : null }),
  ),
  PATCH: handle(api.cameras.saveVideo, resource, async ({ user, params, body }) => updateVideoSettings(db(), user.id, params.id, body)),
  DELETE: handle(api.cameras.remove, resource, async ({ user, params }) => {
    await retireCameraMonitors(db(), user.id, params.id); // their stories and sessions finish; the rows go with the camera
    await deleteCamera(db(), user.id, params.id);
  }),
});
export const action = loader;
