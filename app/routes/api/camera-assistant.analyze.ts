// POST /api/camera-assistant/analyze {imageBase64, cameraType, targetLook, intent} → {recommendations}.
import { db } from "#db/index";
import { FRAME_BODY } from "#server/vision/frames";
import { analyzeShot } from "#server/vision/service";
import { apiRoute } from "#server/http/api";
import { aiFrame, withFrameField } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.moondream.analyzeShot, { ...FRAME_BODY, frameField: "imageBase64" }, async ({ request, session, body, decoded }) =>
    withFrameField("imageBase64", () => analyzeShot(db(), { session, input: body, frame: aiFrame(body.imageBase64, decoded) }, request.signal)),
  ),
});
export const action = loader;
