// POST /api/exposure {connection, setting, value}: manual exposure of a PTZ camera, mapped to its protocol's ranges.
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzService } from "#server/ptz/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.ptz.exposure, { bodyLimit: PTZ_BODY_LIMIT }, async ({ body }) => {
    await relay(() => ptzService().exposure(body.connection, body.setting, body.value));
    return { ok: true } as const;
  }),
});
export const action = loader;
