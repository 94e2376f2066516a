// POST /api/ptz/stop {connection, what?}: stops pan/tilt, zoom and focus (or one of them).
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzStopSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    await requireUser(request);
    const input = await readJson(request, ptzStopSchema, 16 * 1024);
    await relay(() => ptzService().stop(input.connection, input.what));
    return json({ ok: true });
  },
});
export const action = loader;
