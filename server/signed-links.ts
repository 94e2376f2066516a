// Signed, expiring links for readers that hold no session (a photo in a webhook or an e-mail, a shared Insights
// report): an HMAC-SHA256 with SESSION_SECRET over what the link names and its expiry. Each kind of link puts its
// own prefix in `subject`, so a signature for one thing can never pass for another.
import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "./config";

export function linkSignature(subject: string, expires: number): string {
  return createHmac("sha256", config().sessionSecret).update(`${subject}.${expires}`).digest("base64url");
}

/** Whether `signature` signs `subject` until `expires` (Unix seconds, given as text) and that time has not passed. */
export function validLinkSignature(subject: string, expires: string | undefined, signature: string | undefined, now = Date.now()): boolean {
  if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return false;
  if (Number(expires) * 1000 < now) return false;
  const expected = Buffer.from(linkSignature(subject, Number(expires)));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
