// GET /api/presets?cameraId= → saved PTZ presets; POST {cameraId, name, number or position} → 201.
import { db } from "#db/index";
import { createPreset, listPresets } from "#server/cameras/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.presets.list, async ({ user, query }) => listPresets(db(), user.id, query.cameraId)),
  POST: handle(api.presets.create, async ({ user, body }) => createPreset(db(), user.id, body)),
});
export const action = loader;
