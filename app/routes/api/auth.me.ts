// GET /api/auth/me → the signed-in user, or 401. DELETE /api/auth/me deletes the account and all its data.
import { db } from "../../../db/index";
import { deleteUser } from "../../../server/accounts/service";
import { destroySession, requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json } from "../../../server/http/api";

export const loader = apiRoute({
  GET: async ({ request }) => json(await requireUser(request)),
  DELETE: async ({ request }) => {
    const user = await requireUser(request);
    const clearCookie = await destroySession(request);
    await deleteUser(db(), user.id);
    return new Response(null, { status: 204, headers: { "Set-Cookie": clearCookie } });
  },
});
export const action = loader;
