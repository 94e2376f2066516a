// POST /api/ptz/stop {connection, what?}: stops pan/tilt, zoom and focus (or one of them).
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { PTZ_BODY_LIMIT, relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzStopSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const { input } = await authenticatedJson(request, ptzStopSchema, PTZ_BODY_LIMIT);
    await relay(() => ptzService().stop(input.connection, input.what));
    return json({ ok: true });
  },
});
export const action = loader;
