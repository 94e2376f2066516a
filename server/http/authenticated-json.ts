// Reads a large JSON body while the session is looked up, so an uploaded frame and the session query
// overlap instead of adding up. Sign-in is still checked first: an anonymous caller gets the 401, never
// a complaint about its body.
import type { z } from "zod";
import type { CurrentUser } from "../../app/schemas/auth";
import { requireUser } from "../accounts/sessions";
import { readJson } from "./api";

export async function authenticatedJson<S extends z.ZodType>(request: Request, schema: S, limit: number): Promise<[CurrentUser, z.output<S>]> {
  const body = readJson(request, schema, limit);
  body.catch(() => {}); // when sign-in fails first, the body's own error is not the answer
  const user = await requireUser(request);
  return [user, await body];
}
