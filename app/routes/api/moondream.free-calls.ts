// GET /api/moondream/free-calls → {hasMoondreamApiKey, used, limit, sharedKey, poolExhausted}: what the studio
// says about the shared key's free calls before a call is made.
import { db } from "#db/index";
import { freeCalls } from "#server/vision/credentials";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.moondream.freeCalls, async ({ session }) => freeCalls(db(), session)),
});
