// POST /api/ptz/move {connection, direction, speed, durationMs?}: starts a pan/tilt (or goes home); it runs until stop, durationMs, or 2 s without a command.
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzMoveSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    await requireUser(request);
    const input = await readJson(request, ptzMoveSchema, 16 * 1024);
    await relay(() => ptzService().move(input.connection, input.direction, input.speed, input.durationMs));
    return json({ ok: true });
  },
});
export const action = loader;
