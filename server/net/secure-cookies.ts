// Whether a cookie set in answer to this request is marked Secure: every cookie the app sets follows this.
import { config } from "../config";

/** Secure whenever the request came over HTTPS (directly or via a trusted proxy), or when forced by SECURE_COOKIES. */
export function secureCookies(request: Request): boolean {
  return config().secureCookies ?? new URL(request.url).protocol === "https:";
}
