// The Insights forms' errors: a field's first message from the schema (checked before sending) or from the API's
// problem `errors`; any other failure is the problem's `detail` in a toast.
import type { z } from "zod";
import { errorDetail, problemFieldErrors } from "../../lib/api/errors";
import { toast } from "../ui/toast-store";

export type FormErrors = Record<string, string>;

/** The first message per top-level field ("doors.0.lineId" shows under "doors"). */
export function schemaErrors(error: z.ZodError): FormErrors {
  const errors: FormErrors = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? "body")] ??= issue.message;
  return errors;
}

/** Field errors from a failed call to show under the fields, or {} after raising a toast with the problem's detail. */
export function apiErrors(error: unknown, title: string): FormErrors {
  const errors: FormErrors = {};
  for (const [key, messages] of Object.entries(problemFieldErrors(error))) if (messages[0]) errors[key.split(".")[0]!] ??= messages[0];
  if (Object.keys(errors).length === 0) toast({ title, description: errorDetail(error, "Try again in a moment."), variant: "destructive" });
  return errors;
}

/** A failed call that has no form: its detail in a toast. */
export function toastError(error: unknown, title: string): void {
  toast({ title, description: errorDetail(error, "Try again in a moment."), variant: "destructive" });
}
