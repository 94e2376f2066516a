// Signed, expiring links to a photo's image, for receivers that hold no session (webhooks, e-mails): signed over
// owner, photo and expiry (../signed-links.ts).
import { config } from "../config";
import { linkSignature, validLinkSignature } from "../signed-links";

export const PHOTO_LINK_DAYS = 7;

const subject = (userId: string, photoId: string) => `photo-link.${userId}.${photoId}`;

/** The site origin links point at: PUBLIC_URL, or this server on localhost. */
export function linkOrigin(): string {
  return config().publicUrl ? new URL(config().publicUrl!).origin : `http://localhost:${config().port}`;
}

export function signedPhotoUrl(userId: string, photoId: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + PHOTO_LINK_DAYS * 24 * 60 * 60;
  const query = new URLSearchParams({ owner: userId, expires: String(expires), signature: linkSignature(subject(userId, photoId), expires) });
  return `${linkOrigin()}/api/photos/${photoId}/image?${query}`;
}

/** The owner's id when the query holds a valid, unexpired signature for this photo; otherwise null. */
export function verifyPhotoLink(photoId: string, query: Record<string, string>, now = Date.now()): string | null {
  const { owner, expires, signature } = query;
  if (!owner) return null;
  return validLinkSignature(subject(owner, photoId), expires, signature, now) ? owner : null;
}
