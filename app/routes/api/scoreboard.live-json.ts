// GET /api/scoreboard/live.json?userId= → the user's live scoreboard. Public (for overlay tools on any site).
import { db } from "#db/index";
import { apiRoute, idParam } from "#server/http/api";
import { getLiveScoreboard } from "#server/scoreboard/service";
import { liveHeaders } from "#server/scoreboard/live-stream";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.scoreboard.liveJson, async ({ query, headers }) => {
    for (const [name, value] of Object.entries(liveHeaders)) headers.set(name, value);
    return getLiveScoreboard(db(), idParam(query.userId, "Scoreboard"));
  }),
});
export const action = loader;
