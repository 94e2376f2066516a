// POST /api/ptz/preset {connection, action save/recall/delete, number, name?}: the camera's own preset slots (never 90–99, 150, 151).
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzPresetSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    await requireUser(request);
    const input = await readJson(request, ptzPresetSchema, 16 * 1024);
    await relay(() => ptzService().preset(input.connection, input.action, input.number, input.name));
    return json({ ok: true });
  },
});
export const action = loader;
