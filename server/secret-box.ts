// Secrets at rest (users' Moondream keys, webhook signing secrets, IP camera logins): AES-256-GCM with a random
// 96-bit IV, stored as base64 "iv.tag.data". The user id is bound in as additional data, so a ciphertext copied onto
// another user's row won't open.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

export function encryptApiKey(apiKey: string, userId: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(userId));
  const data = Buffer.concat([cipher.update(apiKey, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((part) => part.toString("base64")).join(".");
}

/** The key, or null when the ciphertext does not open with this key (e.g. ENCRYPTION_KEY was changed). */
export function decryptApiKey(ciphertext: string, userId: string, key: Buffer): string | null {
  const [iv, tag, data] = ciphertext.split(".").map((part) => Buffer.from(part, "base64"));
  if (!iv || !tag || !data || iv.length !== 12 || tag.length !== 16) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
