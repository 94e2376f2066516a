// GET /api/auth/me → the signed-in user, or 401.
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json } from "../../../server/http/api";

export const loader = apiRoute({
  GET: async ({ request }) => json(await requireUser(request)),
});
export const action = loader;
