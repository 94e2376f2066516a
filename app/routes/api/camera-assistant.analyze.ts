// POST /api/camera-assistant/analyze {imageBase64, cameraType, targetLook, intent} → {recommendations}.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { FRAME_BODY_LIMIT } from "../../../server/vision/frames";
import { analyzeShot } from "../../../server/vision/service";
import { assistantRequestSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await analyzeShot(db(), user.id, await readJson(request, assistantRequestSchema, FRAME_BODY_LIMIT), request.signal));
  },
});
export const action = loader;
