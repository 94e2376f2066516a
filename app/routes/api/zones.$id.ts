// /api/zones/:id — PUT replaces a zone, DELETE removes it with its counts.
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";
import { deleteRegion, updateZone } from "#server/local-vision/service";

const resource = { resource: "Zone" };

export const loader = apiRoute({
  PUT: handle(api.localVision.updateZone, resource, async ({ user, params, body }) => updateZone(db(), user.id, params.id, body)),
  DELETE: handle(api.localVision.removeZone, resource, async ({ user, params }) => {
    await deleteRegion(db(), user.id, "zone", params.id);
  }),
});
export const action = loader;
