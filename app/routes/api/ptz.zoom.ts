// POST /api/ptz/zoom {connection, direction in/out, speed}: zooms until stop (or the 2 s watchdog).
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { PTZ_BODY_LIMIT, relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzZoomSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const { input } = await authenticatedJson(request, ptzZoomSchema, PTZ_BODY_LIMIT);
    await relay(() => ptzService().zoom(input.connection, input.direction, input.speed));
    return json({ ok: true });
  },
});
export const action = loader;
