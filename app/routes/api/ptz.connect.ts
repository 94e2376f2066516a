// POST /api/ptz/connect {connection}: verifies the camera (finding its protocol when none is given) and returns its model.
import { apiRoute, json } from "../../../server/http/api";
import { readPtzRequest, relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzConnectSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const input = await readPtzRequest(request, ptzConnectSchema);
    return json(await relay(() => ptzService().connect(input.connection)));
  },
});
export const action = loader;
