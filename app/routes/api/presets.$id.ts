// DELETE /api/presets/:id
import { db } from "#db/index";
import { deletePreset } from "#server/cameras/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  DELETE: handle(api.presets.remove, { resource: "Preset" }, async ({ user, params }) => {
    await deletePreset(db(), user.id, params.id);
  }),
});
export const action = loader;
