// GET /api/admin/feature-requests?page= → an array of feature requests, newest first. Admins only.
import { db } from "#db/index";
import { listFeatureRequests } from "#server/admin/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.admin.listFeatureRequests, async ({ query, headers }) => {
    const result = await listFeatureRequests(db(), query.page);
    headers.set("X-Total-Count", String(result.total));
    return result.items.map(({ username: _username, ...request }) => request);
  }),
});
export const action = loader;
