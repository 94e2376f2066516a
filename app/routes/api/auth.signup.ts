// POST /api/auth/signup {username, password, setupToken?} → 201 with the new user, signed in.
import { db } from "#db/index";
import { signUp } from "#server/accounts/service";
import { createSession } from "#server/accounts/sessions";
import { clientIp, isFromThisMachine, requestMeta } from "#server/http/client-ip";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.accounts.signup, async ({ request, body, headers }) => {
    const user = await signUp(db(), body, { ip: clientIp(request), fromThisMachine: isFromThisMachine(request) });
    headers.set("Set-Cookie", await createSession(request, user.id, requestMeta(request)));
    return user;
  }),
});
export const action = loader;
