// GET /api/scoreboard/events?userId= → Server-Sent Events: the live scoreboard on connect, then each new
// reading (from any app server). Public; what live.html listens to.
import { db } from "../../../db/index";
import { apiRoute, idParam, parseInput, queryParams } from "../../../server/http/api";
import { openLiveStream } from "../../../server/scoreboard/service";
import { liveQuerySchema } from "../../schemas/vision";

export const loader = apiRoute({
  GET: async ({ request }) => {
    const userId = idParam(parseInput(liveQuerySchema, queryParams(request)).userId, "Scoreboard");
    return openLiveStream(db(), userId, request.signal);
  },
});
export const action = loader;
