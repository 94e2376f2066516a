// GET /api/cameras/:id/counts — the camera's line and zone counts per minute.
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";
import { readCounts } from "#server/local-vision/service";

export const loader = apiRoute({
  GET: handle(api.localVision.counts, { resource: "Camera" }, async ({ user, params, query }) => readCounts(db(), user.id, params.id, query)),
});
export const action = loader;
