// POST /api/ptz/focus {connection, direction near/far/auto, speed}: drives focus until stop, or back to autofocus.
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzService } from "#server/ptz/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.ptz.focus, { bodyLimit: PTZ_BODY_LIMIT }, async ({ body }) => {
    await relay(() => ptzService().focus(body.connection, body.direction, body.speed));
    return { ok: true } as const;
  }),
});
export const action = loader;
