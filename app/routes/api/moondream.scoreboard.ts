// POST /api/moondream/scoreboard {imageData, sport} → {scoreboard}; a readable one becomes the user's live scoreboard.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { FRAME_BODY_LIMIT } from "../../../server/vision/frames";
import { readScoreboard } from "../../../server/vision/service";
import { scoreboardRequestSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await readScoreboard(db(), user.id, await readJson(request, scoreboardRequestSchema, FRAME_BODY_LIMIT), request.signal));
  },
});
export const action = loader;
