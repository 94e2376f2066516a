// POST /api/camera-assistant/analyze {imageBase64, cameraType, targetLook, intent} → {recommendations}.
import { db } from "#db/index";
import { FRAME_BODY } from "#server/vision/frames";
import { analyzeShot } from "#server/vision/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.moondream.analyzeShot, { ...FRAME_BODY, frameField: "imageBase64" }, async ({ request, session, body, decoded }) =>
    analyzeShot(db(), { session, input: body, decoded }, request.signal),
  ),
});
export const action = loader;
