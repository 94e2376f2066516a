// POST /api/people-count/count {imageData, sessionId, useRange} → {count, countMin, countMax, snapshot, session}:
// counts people in the frame and stores it as a snapshot of the session.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { FRAME_BODY_LIMIT } from "../../../server/vision/frames";
import { countPeople } from "../../../server/vision/service";
import { countRequestSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await countPeople(db(), user.id, await readJson(request, countRequestSchema, FRAME_BODY_LIMIT), request.signal));
  },
});
export const action = loader;
