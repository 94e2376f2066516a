// POST /api/ptz/zoom {connection, direction in/out, speed}: zooms until stop (or the 2 s watchdog).
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzZoomSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    await requireUser(request);
    const input = await readJson(request, ptzZoomSchema, 16 * 1024);
    await relay(() => ptzService().zoom(input.connection, input.direction, input.speed));
    return json({ ok: true });
  },
});
export const action = loader;
