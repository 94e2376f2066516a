// POST /api/camera-assistant/analyze {imageBase64, cameraType, targetLook, intent} → {recommendations}.
import { db } from "../../../db/index";
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { FRAME_BODY_LIMIT } from "../../../server/vision/frames";
import { analyzeShot } from "../../../server/vision/service";
import { assistantRequestSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const call = await authenticatedJson(request, assistantRequestSchema, FRAME_BODY_LIMIT);
    return json(await analyzeShot(db(), call, request.signal));
  },
});
export const action = loader;
