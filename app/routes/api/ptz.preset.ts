// POST /api/ptz/preset {connection, action save/recall/delete, number, name?}: the camera's own preset slots (never 90–99, 150, 151).
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { PTZ_BODY_LIMIT, relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzPresetSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const { input } = await authenticatedJson(request, ptzPresetSchema, PTZ_BODY_LIMIT);
    await relay(() => ptzService().preset(input.connection, input.action, input.number, input.name));
    return json({ ok: true });
  },
});
export const action = loader;
