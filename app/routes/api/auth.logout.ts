// POST /api/auth/logout: deletes the session; 204 whether or not one existed.
import { destroySession } from "../../../server/accounts/sessions";
import { apiRoute } from "../../../server/http/api";

export const loader = apiRoute({
  POST: async ({ request }) => new Response(null, { status: 204, headers: { "Set-Cookie": await destroySession(request) } }),
});
export const action = loader;
