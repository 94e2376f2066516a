// POST /api/moondream/query {imageData, question, priority} → {answer}: local vision's "describe with Moondream".
import { db } from "#db/index";
import { FRAME_BODY } from "#server/vision/frames";
import { query } from "#server/vision/service";
import { apiRoute } from "#server/http/api";
import { aiFrame } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.moondream.query, FRAME_BODY, async ({ request, session, body, decoded }) =>
    query(db(), { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal),
  ),
});
export const action = loader;
