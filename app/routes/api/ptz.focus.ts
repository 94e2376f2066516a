// POST /api/ptz/focus {connection, direction near/far/auto, speed}: drives focus until stop, or back to autofocus.
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { PTZ_BODY_LIMIT, relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzFocusSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const { input } = await authenticatedJson(request, ptzFocusSchema, PTZ_BODY_LIMIT);
    await relay(() => ptzService().focus(input.connection, input.direction, input.speed));
    return json({ ok: true });
  },
});
export const action = loader;
