// POST /api/exposure {connection, setting, value}: manual exposure of a PTZ camera, mapped to its protocol's ranges.
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { relay } from "../../../server/ptz/relay";
import { ptzService } from "../../../server/ptz/service";
import { exposureSchema } from "../../schemas/ptz";

export const loader = apiRoute({
  POST: async ({ request }) => {
    await requireUser(request);
    const input = await readJson(request, exposureSchema, 16 * 1024);
    await relay(() => ptzService().exposure(input.connection, input.setting, input.value));
    return json({ ok: true });
  },
});
export const action = loader;
