// POST /api/ptz/connect {connection}: verifies the camera (finding its protocol when none is given) and returns its model.
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { ptzConnectSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    await requireUser(request);
    const input = await readJson(request, ptzConnectSchema, 16 * 1024);
    return json(await relay(() => ptzService().connect(input.connection)));
  },
});
export const action = loader;
