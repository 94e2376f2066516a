// GET /api/admin/users?page= → an array of users (100 a page; X-Total-Count has the total). Admins only.
import { db } from "../../../db/index";
import { listUsers } from "../../../server/admin/service";
import { requireAdmin } from "../../../server/accounts/sessions";
import { apiRoute, json, parseInput } from "../../../server/http/api";
import { pageQuerySchema } from "../../schemas/admin";

export const loader = apiRoute({
  GET: async ({ request }) => {
    await requireAdmin(request);
    const { page } = parseInput(pageQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const result = await listUsers(db(), page);
    return json(result.items, { headers: { "X-Total-Count": String(result.total) } });
  },
});
export const action = loader;
