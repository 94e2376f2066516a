// GET /api/admin/users?page= → an array of users (100 a page; X-Total-Count has the total). Admins only.
import { db } from "#db/index";
import { listUsers } from "#server/admin/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.admin.listUsers, async ({ query, headers }) => {
    const result = await listUsers(db(), query.page);
    headers.set("X-Total-Count", String(result.total));
    return result.items;
  }),
});
export const action = loader;
