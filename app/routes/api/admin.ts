// The admin operations' handlers (app/schemas/operations/admin.ts), one per catalogue entry.
import { db } from "#db/index";
import { listUsers, listFeatureRequests } from "#server/admin/service";
import { handle } from "#server/http/operation";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

export const admin = {
  // GET /api/admin/users?page= → an array of users (100 a page; X-Total-Count has the total). Admins only.
  listUsers: handle(api.admin.listUsers, async ({ query, headers }) => {
    const result = await listUsers(db(), query.page);
    headers.set("X-Total-Count", String(result.total));
    return result.items;
  }),
  // GET /api/admin/feature-requests?page= → an array of feature requests, newest first. Admins only.
  listFeatureRequests: handle(api.admin.listFeatureRequests, async ({ query, headers }) => {
    const result = await listFeatureRequests(db(), query.page);
    headers.set("X-Total-Count", String(result.total));
    return result.items.map(({ username: _username, ...request }) => request);
  }),
} satisfies ResourceHandlers<typeof api.admin>;
