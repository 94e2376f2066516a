// GET /api/scoreboard/live.html?userId= → the OBS browser-source overlay (transparent, 1920×1080). Public.
import { db } from "../../../db/index";
import { apiRoute, idParam, parseInput, queryParams } from "../../../server/http/api";
import { liveHeaders } from "../../../server/scoreboard/live-stream";
import { liveOverlayHtml } from "../../../server/scoreboard/service";
import { liveQuerySchema } from "../../schemas/vision";
import type { Route } from "./+types/scoreboard.live-html";

export const loader = apiRoute<Route.LoaderArgs>({
  GET: async ({ request, context }) => {
    const userId = idParam(parseInput(liveQuerySchema, queryParams(request)).userId, "Scoreboard");
    // The page's one inline script carries this response's CSP nonce.
    const html = await liveOverlayHtml(db(), userId, context.cspNonce);
    return new Response(html, { headers: { ...liveHeaders, "Content-Type": "text/html; charset=utf-8" } });
  },
});
export const action = loader;
