// Form posts to the pages: a body that is no readable form (broken multipart, JSON, a wrong boundary) is the
// sender's mistake. Undici's "Failed to parse body as FormData" would otherwise leave as a 500.
import { data } from "react-router";

/** The request's form fields, read from a clone so the body stays readable (remix-auth reads it again). */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.clone().formData();
  } catch {
    throw data("The form could not be read: send it as application/x-www-form-urlencoded or multipart/form-data", { status: 400 });
  }
}
