// GET /api/moondream/free-calls → {hasMoondreamApiKey, used, limit, sharedKey, poolExhausted}: what the studio
// says about the shared key's free calls before a call is made.
import { db } from "../../../db/index";
import { requireSession } from "../../../server/accounts/sessions";
import { apiRoute, json } from "../../../server/http/api";
import { freeCalls } from "../../../server/vision/credentials";

export const loader = apiRoute({
  GET: async ({ request }) => json(await freeCalls(db(), await requireSession(request))),
});
