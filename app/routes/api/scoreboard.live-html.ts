// GET /api/scoreboard/live.html?userId= → the OBS browser-source overlay (transparent, 1920×1080). Public.
import { db } from "#db/index";
import { apiRoute, idParam } from "#server/http/api";
import { liveHeaders } from "#server/scoreboard/live-stream";
import { liveOverlayHtml } from "#server/scoreboard/service";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.scoreboard.liveHtml, async ({ query, context }) => {
    // The page's one inline script carries this response's CSP nonce.
    const html = await liveOverlayHtml(db(), idParam(query.userId, "Scoreboard"), context?.cspNonce ?? "");
    return new Response(html, { headers: { ...liveHeaders, "Content-Type": "text/html; charset=utf-8" } });
  }),
});
export const action = loader;
