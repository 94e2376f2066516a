// POST /api/feature-requests {title, description} → 201 with the stored request.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { createFeatureRequest } from "../../../server/feature-requests/service";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { featureRequestInputSchema } from "../../schemas/feature-requests";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const user = await requireUser(request);
    const input = await readJson(request, featureRequestInputSchema);
    return json(await createFeatureRequest(db(), user.id, input), { status: 201 });
  },
});
export const action = loader;
