// POST /api/ptz/focus {connection, direction near/far/auto, speed}: drives focus until stop, or back to autofocus.
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzConnectionFor } from "#server/cameras/ptz-connection";
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.ptz.focus, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body, services }) => {
    await relay(async () => services.ptz.focus(await ptzConnectionFor(db(), user.id, body.connection), body.direction, body.speed));
    return { ok: true } as const;
  }),
});
export const action = loader;
