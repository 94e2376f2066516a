// Form posts to the pages: a body that is no readable form (broken multipart, JSON, a wrong boundary) is the
// sender's mistake (Undici's "Failed to parse body as FormData" would otherwise leave as a 500), and a rule a
// service refuses comes back to the form as Conform errors, not as an error page.
import type { Submission } from "@conform-to/react";
import { data } from "react-router";
import { ProblemError } from "../errors";

/** The request's form fields, read from a clone so the body stays readable (remix-auth reads it again). */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.clone().formData();
  } catch {
    throw data("The form could not be read: send it as application/x-www-form-urlencoded or multipart/form-data", { status: 400 });
  }
}

/**
 * A page action's answer when its service refuses with a ProblemError (anything else is rethrown): the problem's
 * field errors under their fields, or else its message over the form, with its status and headers (Retry-After).
 * `hideFields` (passwords) are not sent back into the form.
 */
export function formProblem(error: unknown, submission: Submission<unknown>, hideFields: string[]) {
  if (!(error instanceof ProblemError)) throw error;
  const errors = error.init.errors;
  return data(
    {
      result: submission.reply({ fieldErrors: errors ?? {}, formErrors: errors ? [] : [error.message], hideFields }),
      status: error.status,
      message: error.message,
    },
    { status: error.status, headers: error.init.headers },
  );
}
