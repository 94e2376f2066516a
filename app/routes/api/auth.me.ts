// GET /api/auth/me → the signed-in user, or 401. DELETE /api/auth/me deletes the account and all its data.
import { db } from "#db/index";
import { deleteUser } from "#server/accounts/service";
import { destroySession } from "#server/accounts/sessions";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.accounts.me, async ({ user }) => user),
  DELETE: handle(api.accounts.deleteMe, async ({ request, user, headers }) => {
    headers.set("Set-Cookie", await destroySession(request));
    await deleteUser(db(), user.id);
  }),
});
export const action = loader;
