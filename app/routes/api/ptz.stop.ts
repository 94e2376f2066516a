// POST /api/ptz/stop {connection, what?}: stops pan/tilt, zoom and focus (or one of them).
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzConnectionFor } from "#server/cameras/ptz-connection";
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.ptz.stop, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body, services }) => {
    await relay(async () => services.ptz.stop(await ptzConnectionFor(db(), user.id, body.connection), body.what));
    return { ok: true } as const;
  }),
});
export const action = loader;
