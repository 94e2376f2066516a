// POST /api/ptz/move {connection, direction, speed, durationMs?}: starts a pan/tilt (or goes home); it runs until stop, durationMs, or 2 s without a command.
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { PTZ_BODY_LIMIT, relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzMoveSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const { input } = await authenticatedJson(request, ptzMoveSchema, PTZ_BODY_LIMIT);
    await relay(() => ptzService().move(input.connection, input.direction, input.speed, input.durationMs));
    return json({ ok: true });
  },
});
export const action = loader;
