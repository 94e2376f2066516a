// POST /api/moondream/detect {imageData, object, maxObjects, confidenceThreshold} → {boxes} (fractions of the frame).
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { FRAME_BODY_LIMIT } from "../../../server/vision/frames";
import { detect } from "../../../server/vision/service";
import { detectRequestSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await detect(db(), user.id, await readJson(request, detectRequestSchema, FRAME_BODY_LIMIT), request.signal));
  },
});
export const action = loader;
