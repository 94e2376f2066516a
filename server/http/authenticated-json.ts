// Reads a JSON body while the session is looked up, so an uploaded frame (or a held joystick's command) and
// the session query overlap instead of adding up. Sign-in is still checked first: an anonymous caller gets the 401, never
// a complaint about its body.
import type { z } from "zod";
import { requireSession, type Session } from "../accounts/sessions";
import { readJsonDecoded, type DecodedJson } from "./api";

export async function authenticatedJson<S extends z.ZodType>(request: Request, schema: S, limit: number): Promise<DecodedJson<z.output<S>> & { session: Session }> {
  const body = readJsonDecoded(request, schema, limit);
  body.catch(() => {}); // when sign-in fails first, the body's own error is not the answer
  const session = await requireSession(request);
  return { session, ...(await body) };
}
