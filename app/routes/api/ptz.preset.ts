// POST /api/ptz/preset {connection, action save/recall/delete, number, name?}: the camera's own preset slots (never 90–99, 150, 151).
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzConnectionFor } from "#server/cameras/ptz-connection";
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.ptz.preset, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body, services }) => {
    await relay(async () => services.ptz.preset(await ptzConnectionFor(db(), user.id, body.connection), body.action, body.number, body.name));
    return { ok: true } as const;
  }),
});
export const action = loader;
