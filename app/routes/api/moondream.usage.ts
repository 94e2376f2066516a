// GET /api/moondream/usage → {currentHour, hours, totals}: the user's Moondream calls per UTC hour and feature
// over the last 24 hours, for the AI tab's "AI calls" panel.
import { db } from "#db/index";
import { usage } from "#server/vision/usage";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.moondream.usage, async ({ session }) => usage(db(), session.user.id)),
});
