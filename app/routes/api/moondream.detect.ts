// POST /api/moondream/detect {imageData, object, maxObjects, confidenceThreshold} → {boxes} (fractions of the frame).
import { db } from "../../../db/index";
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { FRAME_BODY_LIMIT } from "../../../server/vision/frames";
import { detect } from "../../../server/vision/service";
import { detectRequestSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const call = await authenticatedJson(request, detectRequestSchema, FRAME_BODY_LIMIT);
    return json(await detect(db(), call, request.signal));
  },
});
export const action = loader;
