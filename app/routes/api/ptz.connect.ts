// POST /api/ptz/connect {connection}: verifies the camera (finding its protocol when none is given) and returns its model.
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { PTZ_BODY_LIMIT, relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzConnectSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const { input } = await authenticatedJson(request, ptzConnectSchema, PTZ_BODY_LIMIT);
    return json(await relay(() => ptzService().connect(input.connection)));
  },
});
export const action = loader;
