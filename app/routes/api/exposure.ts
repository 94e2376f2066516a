// POST /api/exposure {connection, setting, value}: manual exposure of a PTZ camera, mapped to its protocol's ranges.
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzConnectionFor } from "#server/cameras/ptz-connection";
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.ptz.exposure, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body, services }) => {
    await relay(async () => services.ptz.exposure(await ptzConnectionFor(db(), user.id, body.connection), body.setting, body.value));
    return { ok: true } as const;
  }),
});
export const action = loader;
