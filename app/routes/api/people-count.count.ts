// POST /api/people-count/count {imageData, sessionId, useRange} → {count, countMin, countMax, snapshot, session}:
// counts people in the frame and stores it as a snapshot of the session.
import { db } from "#db/index";
import { FRAME_BODY } from "#server/vision/frames";
import { countPeople } from "#server/vision/service";
import { apiRoute } from "#server/http/api";
import { aiFrame } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.peopleCount.count, FRAME_BODY, async ({ request, session, body, decoded }) =>
    countPeople(db(), { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal),
  ),
});
export const action = loader;
