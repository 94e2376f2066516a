// POST /api/auth/login {username, password} → the user, with a session cookie.
import { db } from "../../../db/index";
import { signIn } from "../../../server/accounts/service";
import { createSession } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { clientIp, requestMeta } from "../../../server/http/client-ip";
import { loginSchema } from "../../schemas/auth";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const input = await readJson(request, loginSchema);
    const user = await signIn(db(), input, clientIp(request));
    const cookie = await createSession(request, user.id, requestMeta(request));
    return json(user, { headers: { "Set-Cookie": cookie } });
  },
});
export const action = loader;
