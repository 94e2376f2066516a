// What a successful sign-in or sign-up answers: a new session cookie (plus a flash toast for pages).
import { redirect } from "react-router";
import { requestMeta } from "../http/client-ip";
import { setFlash, type FlashToast } from "../http/flash";
import { createSession } from "./sessions";

export async function redirectWithNewSession(request: Request, userId: string, to: string, toast: FlashToast): Promise<Response> {
  const headers = new Headers();
  headers.append("Set-Cookie", await createSession(request, userId, requestMeta(request)));
  headers.append("Set-Cookie", await setFlash(toast));
  return redirect(to, { headers });
}
