// GET /api/scoreboard/live.json?userId= → the user's live scoreboard. Public (for overlay tools on any site).
import { db } from "../../../db/index";
import { apiRoute, idParam, json, parseInput, queryParams } from "../../../server/http/api";
import { getLiveScoreboard } from "../../../server/scoreboard/service";
import { liveHeaders } from "../../../server/scoreboard/live-stream";
import { liveQuerySchema } from "../../schemas/vision";

export const loader = apiRoute({
  GET: async ({ request }) => {
    const userId = idParam(parseInput(liveQuerySchema, queryParams(request)).userId, "Scoreboard");
    return json(await getLiveScoreboard(db(), userId), { headers: liveHeaders });
  },
});
export const action = loader;
