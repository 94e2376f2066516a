// GET /api/auth/me → the signed-in user, or 401.
import { requireUser } from "../../../server/accounts/sessions";
import { apiHandler, json } from "../../../server/http/api";

export const loader = apiHandler({
  GET: async ({ request }) => json(await requireUser(request)),
});
