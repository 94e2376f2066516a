// POST /api/moondream/point {imageData, object} → {points} (fractions of the frame).
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { FRAME_BODY_LIMIT } from "../../../server/vision/frames";
import { point } from "../../../server/vision/service";
import { pointRequestSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await point(db(), user.id, await readJson(request, pointRequestSchema, FRAME_BODY_LIMIT), request.signal));
  },
});
export const action = loader;
