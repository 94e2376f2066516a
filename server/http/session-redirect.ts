// What a successful sign-in or sign-up answers: a new session cookie (plus a flash toast for pages).
import { redirectDocument } from "react-router";
import { requestMeta } from "./client-ip";
import { setFlash, type FlashToast } from "./flash";
import { createSession } from "../accounts/sessions";

export async function redirectWithNewSession(request: Request, userId: string, to: string, toast: FlashToast): Promise<Response> {
  const headers = new Headers();
  headers.append("Set-Cookie", await createSession(request, userId, requestMeta(request)));
  headers.append("Set-Cookie", await setFlash(request, toast));
  // A whole-document load: every loader runs afresh under the new session, and a public page (rendered
  // without React in the browser) shows the flash itself instead of a background revalidation eating it.
  return redirectDocument(to, { headers });
}
