// GET /api/cameras/:id/zones → the camera's zones; POST adds one.
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";
import { createZone, listZones } from "#server/local-vision/service";

const resource = { resource: "Camera" };

export const loader = apiRoute({
  GET: handle(api.localVision.listZones, resource, async ({ user, params }) => listZones(db(), user.id, params.id)),
  POST: handle(api.localVision.createZone, resource, async ({ user, params, body }) => createZone(db(), user.id, params.id, body)),
});
export const action = loader;
