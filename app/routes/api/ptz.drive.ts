// POST /api/ptz/drive {connection, pan, tilt, zoom?}: signed pan/tilt (and zoom) speeds for auto-tracking; runs until the next drive, stop, or 2 s without a command.
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzConnectionFor } from "#server/cameras/ptz-connection";
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.ptz.drive, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body, services }) => {
    await relay(async () => services.ptz.drive(await ptzConnectionFor(db(), user.id, body.connection), body.pan, body.tilt, body.zoom));
    return { ok: true } as const;
  }),
});
export const action = loader;
