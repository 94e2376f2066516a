// POST /api/auth/login {username, password} → the user, with a session cookie.
import { db } from "#db/index";
import { signIn } from "#server/accounts/service";
import { createSession } from "#server/accounts/sessions";
import { clientIp, requestMeta } from "#server/http/client-ip";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.accounts.login, async ({ request, body, headers }) => {
    const user = await signIn(db(), body, clientIp(request));
    headers.set("Set-Cookie", await createSession(request, user.id, requestMeta(request)));
    return user;
  }),
});
export const action = loader;
