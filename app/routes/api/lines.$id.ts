// /api/lines/:id — PUT replaces a line, DELETE removes it with its counts.
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";
import { deleteRegion, updateLine } from "#server/local-vision/service";

const resource = { resource: "Line" };

export const loader = apiRoute({
  PUT: handle(api.localVision.updateLine, resource, async ({ user, params, body }) => updateLine(db(), user.id, params.id, body)),
  DELETE: handle(api.localVision.removeLine, resource, async ({ user, params }) => {
    await deleteRegion(db(), user.id, "line", params.id);
  }),
});
export const action = loader;
