// POST /api/people-count/count {imageData, sessionId, useRange} → {count, countMin, countMax, snapshot, session}:
// counts people in the frame and stores it as a snapshot of the session.
import { db } from "../../../db/index";
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { FRAME_BODY_LIMIT } from "../../../server/vision/frames";
import { countPeople } from "../../../server/vision/service";
import { countRequestSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const call = await authenticatedJson(request, countRequestSchema, FRAME_BODY_LIMIT);
    return json(await countPeople(db(), call, request.signal));
  },
});
export const action = loader;
