// POST /api/moondream/point {imageData, object} → {points} (fractions of the frame).
import { db } from "../../../db/index";
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { FRAME_BODY_LIMIT } from "../../../server/vision/frames";
import { point } from "../../../server/vision/service";
import { pointRequestSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const call = await authenticatedJson(request, pointRequestSchema, FRAME_BODY_LIMIT);
    return json(await point(db(), call, request.signal));
  },
});
export const action = loader;
