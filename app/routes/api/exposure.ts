// POST /api/exposure {connection, setting, value}: manual exposure of a PTZ camera, mapped to its protocol's ranges.
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { PTZ_BODY_LIMIT, relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { exposureSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const { input } = await authenticatedJson(request, exposureSchema, PTZ_BODY_LIMIT);
    await relay(() => ptzService().exposure(input.connection, input.setting, input.value));
    return json({ ok: true });
  },
});
export const action = loader;
