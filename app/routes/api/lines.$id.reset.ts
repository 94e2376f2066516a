// POST /api/lines/:id/reset — the line's counts start again from nothing.
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";
import { resetCounts } from "#server/local-vision/service";

export const loader = apiRoute({
  POST: handle(api.localVision.resetLine, { resource: "Line" }, async ({ user, params }) => {
    await resetCounts(db(), user.id, "line", params.id);
  }),
});
export const action = loader;
