// POST /api/ptz/move {connection, direction, speed, durationMs?}: starts a pan/tilt (or goes home); it runs until stop, durationMs, or 2 s without a command.
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzConnectionFor } from "#server/cameras/ptz-connection";
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.ptz.move, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body, services }) => {
    await relay(async () => services.ptz.move(await ptzConnectionFor(db(), user.id, body.connection), body.direction, body.speed, body.durationMs));
    return { ok: true } as const;
  }),
});
export const action = loader;
