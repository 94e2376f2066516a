// POST /api/moondream/point {imageData, object} → {points} (fractions of the frame).
import { db } from "#db/index";
import { FRAME_BODY } from "#server/vision/frames";
import { point } from "#server/vision/service";
import { apiRoute } from "#server/http/api";
import { aiFrame } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.moondream.point, FRAME_BODY, async ({ request, session, body, decoded }) =>
    point(db(), { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal),
  ),
});
export const action = loader;
