// The presets operations' handlers (app/schemas/operations/presets.ts), one per catalogue entry.
import { db } from "#db/index";
import { createPreset, listPresets, deletePreset } from "#server/cameras/service";
import { handle } from "#server/http/operation";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

export const presets = {
  // GET /api/presets?cameraId= → saved PTZ presets; POST {cameraId, name, number or position} → 201.
  list: handle(api.presets.list, async ({ user, query }) => listPresets(db(), user.id, query.cameraId)),
  create: handle(api.presets.create, async ({ user, body }) => createPreset(db(), user.id, body)),
  // DELETE /api/presets/:id
  remove: handle(api.presets.remove, { resource: "Preset" }, async ({ user, params }) => {
    await deletePreset(db(), user.id, params.id);
  }),
} satisfies ResourceHandlers<typeof api.presets>;
