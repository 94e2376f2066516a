// GET /api/presets?cameraId= → saved PTZ presets; POST {cameraId, name, number or position} → 201.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { createPreset, listPresets } from "../../../server/cameras/service";
import { apiRoute, json, parseInput, queryParams, readJson } from "../../../server/http/api";
import { presetCreateSchema, presetListQuerySchema } from "../../schemas/cameras";

export const loader = apiRoute({
  GET: async ({ request }) => {
    const user = await requireUser(request);
    const { cameraId } = parseInput(presetListQuerySchema, queryParams(request));
    return json(await listPresets(db(), user.id, cameraId));
  },
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await createPreset(db(), user.id, await readJson(request, presetCreateSchema)), { status: 201 });
  },
});
export const action = loader;
