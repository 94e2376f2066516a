// The scoreboard operations' handlers (app/schemas/operations/scoreboard.ts), one per catalogue entry.
import { db } from "#db/index";
import { idParam } from "#server/http/api";
import type { ResourceHandlers } from "#server/http/api";
import { getLiveScoreboard, liveOverlayHtml, openLiveStream } from "#server/scoreboard/service";
import { liveHeaders } from "#server/scoreboard/live-stream";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const scoreboard = {
  // GET /api/scoreboard/live.json?userId= → the user's live scoreboard. Public (for overlay tools on any site).
  liveJson: handle(api.scoreboard.liveJson, async ({ query, headers }) => {
    for (const [name, value] of Object.entries(liveHeaders)) headers.set(name, value);
    return getLiveScoreboard(db(), idParam(query.userId, "Scoreboard"));
  }),
  // GET /api/scoreboard/live.html?userId= → the OBS browser-source overlay (transparent, 1920×1080). Public.
  liveHtml: handle(api.scoreboard.liveHtml, async ({ query, context }) => {
    // The page's one inline script carries this response's CSP nonce.
    const html = await liveOverlayHtml(db(), idParam(query.userId, "Scoreboard"), context?.cspNonce ?? "");
    return new Response(html, { headers: { ...liveHeaders, "Content-Type": "text/html; charset=utf-8" } });
  }),
  // GET /api/scoreboard/events?userId= → Server-Sent Events: the live scoreboard on connect, then each new
  // reading (from any app server). Public; what live.html listens to.
  events: handle(api.scoreboard.events, async ({ request, query }) => openLiveStream(db(), idParam(query.userId, "Scoreboard"), request.signal)),
} satisfies ResourceHandlers<typeof api.scoreboard>;
