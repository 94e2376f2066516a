// POST /api/ptz/focus {connection, direction near/far/auto, speed}: drives focus until stop, or back to autofocus.
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzFocusSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    await requireUser(request);
    const input = await readJson(request, ptzFocusSchema, 16 * 1024);
    await relay(() => ptzService().focus(input.connection, input.direction, input.speed));
    return json({ ok: true });
  },
});
export const action = loader;
