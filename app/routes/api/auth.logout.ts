// POST /api/auth/logout: deletes the session; 204 whether or not one existed.
import { destroySession } from "#server/accounts/sessions";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.accounts.logout, async ({ request, headers }) => {
    headers.set("Set-Cookie", await destroySession(request));
  }),
});
export const action = loader;
