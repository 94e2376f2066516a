// POST /api/ptz/zoom {connection, direction in/out, speed}: zooms until stop (or the 2 s watchdog).
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzConnectionFor } from "#server/cameras/ptz-connection";
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.ptz.zoom, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body, services }) => {
    await relay(async () => services.ptz.zoom(await ptzConnectionFor(db(), user.id, body.connection), body.direction, body.speed));
    return { ok: true } as const;
  }),
});
export const action = loader;
