// GET /api/scoreboard/events?userId= → Server-Sent Events: the live scoreboard on connect, then each new
// reading (from any app server). Public; what live.html listens to.
import { db } from "#db/index";
import { apiRoute, idParam } from "#server/http/api";
import { openLiveStream } from "#server/scoreboard/service";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.scoreboard.events, async ({ request, query }) => openLiveStream(db(), idParam(query.userId, "Scoreboard"), request.signal)),
});
export const action = loader;
