// GET /api/luts/:id → the LUT with its .cube text; DELETE (built-in presets answer 403).
import { db } from "#db/index";
import { deleteLut, getLut } from "#server/luts/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.luts.get, { resource: "LUT" }, async ({ user, params }) => getLut(db(), user.id, params.id)),
  DELETE: handle(api.luts.remove, { resource: "LUT" }, async ({ user, params }) => {
    await deleteLut(db(), user.id, params.id);
  }),
});
export const action = loader;
