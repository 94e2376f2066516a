// POST /api/ptz/connect {connection}: verifies the camera (finding its protocol when none is given) and returns its model.
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzConnectionFor } from "#server/cameras/ptz-connection";
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.ptz.connect, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body, services }) =>
    relay(async () => services.ptz.connect(await ptzConnectionFor(db(), user.id, body.connection))),
  ),
});
export const action = loader;
