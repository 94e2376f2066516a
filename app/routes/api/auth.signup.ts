// POST /api/auth/signup {username, password, setupToken?} → 201 with the new user, signed in.
import { db } from "../../../db/index";
import { signUp } from "../../../server/accounts/service";
import { createSession } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { clientIp, isFromThisMachine, requestMeta } from "../../../server/http/client-ip";
import { signupSchema } from "../../schemas/auth";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const input = await readJson(request, signupSchema);
    const user = await signUp(db(), input, { ip: clientIp(request), fromThisMachine: isFromThisMachine(request) });
    const cookie = await createSession(request, user.id, requestMeta(request));
    return json(user, { status: 201, headers: { "Set-Cookie": cookie } });
  },
});
export const action = loader;
