// POST /api/ptz/connect {connection}: verifies the camera (finding its protocol when none is given) and returns its model.
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzService } from "#server/ptz/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.ptz.connect, { bodyLimit: PTZ_BODY_LIMIT }, async ({ body }) => relay(() => ptzService().connect(body.connection))),
});
export const action = loader;
