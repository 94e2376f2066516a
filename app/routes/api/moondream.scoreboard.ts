// POST /api/moondream/scoreboard {imageData, sport} → {scoreboard}; a readable one becomes the user's live scoreboard.
import { db } from "#db/index";
import { FRAME_BODY } from "#server/vision/frames";
import { readScoreboard } from "#server/vision/service";
import { apiRoute } from "#server/http/api";
import { aiFrame } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.moondream.scoreboard, FRAME_BODY, async ({ request, session, body, decoded }) =>
    readScoreboard(db(), { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal),
  ),
});
export const action = loader;
