// POST /api/moondream/scoreboard {imageData, sport} → {scoreboard}; a readable one becomes the user's live scoreboard.
import { db } from "../../../db/index";
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { FRAME_BODY_LIMIT } from "../../../server/vision/frames";
import { readScoreboard } from "../../../server/vision/service";
import { scoreboardRequestSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const call = await authenticatedJson(request, scoreboardRequestSchema, FRAME_BODY_LIMIT);
    return json(await readScoreboard(db(), call, request.signal));
  },
});
export const action = loader;
