// The accounts operations' handlers (app/schemas/operations/accounts.ts), one per catalogue entry.
import { db } from "#db/index";
import { signIn, signUp, deleteUser } from "#server/accounts/service";
import { createSession, destroySession } from "#server/accounts/sessions";
import { clientIp, requestMeta, isFromThisMachine } from "#server/http/client-ip";
import { handle } from "#server/http/operation";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

export const accounts = {
  // POST /api/auth/login {username, password} → the user, with a session cookie.
  login: handle(api.accounts.login, async ({ request, body, headers }) => {
    const user = await signIn(db(), body, clientIp(request));
    headers.set("Set-Cookie", await createSession(request, user.id, requestMeta(request)));
    return user;
  }),
  // POST /api/auth/signup {username, password, setupToken?} → 201 with the new user, signed in.
  signup: handle(api.accounts.signup, async ({ request, body, headers }) => {
    const user = await signUp(db(), body, { ip: clientIp(request), fromThisMachine: isFromThisMachine(request) });
    headers.set("Set-Cookie", await createSession(request, user.id, requestMeta(request)));
    return user;
  }),
  // POST /api/auth/logout: deletes the session; 204 whether or not one existed.
  logout: handle(api.accounts.logout, async ({ request, headers }) => {
    headers.set("Set-Cookie", await destroySession(request));
  }),
  // GET /api/auth/me → the signed-in user, or 401. DELETE /api/auth/me deletes the account and all its data.
  me: handle(api.accounts.me, async ({ user }) => user),
  deleteMe: handle(api.accounts.deleteMe, async ({ request, user, headers, services }) => {
    headers.set("Set-Cookie", await destroySession(request));
    await deleteUser(db(), services.blobs, user.id);
  }),
} satisfies ResourceHandlers<typeof api.accounts>;
