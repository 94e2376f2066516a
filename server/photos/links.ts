// Signed, expiring links to a photo's image, for receivers that hold no session (webhooks, e-mails):
// an HMAC-SHA256 with SESSION_SECRET over owner, photo and expiry.
import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "../config";

export const PHOTO_LINK_DAYS = 7;

function mac(userId: string, photoId: string, expires: number): string {
  return createHmac("sha256", config().sessionSecret).update(`photo-link.${userId}.${photoId}.${expires}`).digest("base64url");
}

/** The site origin links point at: PUBLIC_URL, or this server on localhost. */
export function linkOrigin(): string {
  return config().publicUrl ? new URL(config().publicUrl!).origin : `http://localhost:${config().port}`;
}

export function signedPhotoUrl(userId: string, photoId: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + PHOTO_LINK_DAYS * 24 * 60 * 60;
  const query = new URLSearchParams({ owner: userId, expires: String(expires), signature: mac(userId, photoId, expires) });
  return `${linkOrigin()}/api/photos/${photoId}/image?${query}`;
}

/** The owner's id when the query holds a valid, unexpired signature for this photo; otherwise null. */
export function verifyPhotoLink(photoId: string, query: Record<string, string>, now = Date.now()): string | null {
  const { owner, expires, signature } = query;
  if (!owner || !expires || !signature || !/^\d+$/.test(expires)) return null;
  if (Number(expires) * 1000 < now) return null;
  const expected = Buffer.from(mac(owner, photoId, Number(expires)));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? owner : null;
}
