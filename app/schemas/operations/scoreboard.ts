// The scoreboard operations of the catalogue (see ./define.ts).
import { liveQuerySchema, liveScoreboardSchema } from "../vision";
import { defineOperation } from "./define";

export const scoreboard = {
  liveJson: defineOperation({
    method: "get",
    path: "/api/scoreboard/live.json",
    summary: "A user's live scoreboard (CORS *, no-store); an unknown user id gets the empty board, like an account without a reading",
    tag: "Live scoreboard",
    access: "public",
    query: liveQuerySchema,
    success: { status: 200, schema: liveScoreboardSchema },
    errors: [400, 404],
  }),
  liveHtml: defineOperation({
    method: "get",
    path: "/api/scoreboard/live.html",
    summary: "The OBS browser-source overlay: transparent 1920×1080, updated live",
    tag: "Live scoreboard",
    access: "public",
    query: liveQuerySchema,
    success: { status: 200, schema: null, contentType: "text/html" },
    errors: [400, 404],
  }),
  events: defineOperation({
    method: "get",
    path: "/api/scoreboard/events",
    summary: "Server-Sent Events: the live scoreboard on connect, then each new reading (CORS *)",
    tag: "Live scoreboard",
    access: "public",
    query: liveQuerySchema,
    success: { status: 200, schema: null, contentType: "text/event-stream", description: "`data:` lines carry the live scoreboard JSON; `id:` is its version" },
    errors: [400, 404],
  }),
};
