// GET /api/admin/feature-requests?page= → an array of feature requests, newest first. Admins only.
import { db } from "../../../db/index";
import { listFeatureRequests } from "../../../server/admin/service";
import { requireAdmin } from "../../../server/accounts/sessions";
import { apiRoute, json, parseInput } from "../../../server/http/api";
import { pageQuerySchema } from "../../schemas/admin";

export const loader = apiRoute({
  GET: async ({ request }) => {
    await requireAdmin(request);
    const { page } = parseInput(pageQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const result = await listFeatureRequests(db(), page);
    return json(
      result.items.map(({ username: _username, ...request }) => request),
      { headers: { "X-Total-Count": String(result.total) } },
    );
  },
});
export const action = loader;
