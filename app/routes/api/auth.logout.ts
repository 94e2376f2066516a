// POST /api/auth/logout: deletes the session; 204 whether or not one existed.
import { destroySession } from "../../../server/accounts/sessions";
import { apiHandler } from "../../../server/http/api";

export const action = apiHandler({
  POST: async ({ request }) => new Response(null, { status: 204, headers: { "Set-Cookie": await destroySession(request) } }),
});
