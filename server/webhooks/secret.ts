// The per-user Standard Webhooks signing secret: "whsec_" + base64 of 32 random bytes, kept encrypted at
// rest with ENCRYPTION_KEY (user id bound in) and created on first use. Never logged.
import { randomBytes } from "node:crypto";
import type { DB } from "#db/index";
import { config } from "../config";
import { decryptApiKey, encryptApiKey } from "../secret-box";
import * as q from "./queries";

export function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

async function store(db: DB, userId: string, secret: string): Promise<void> {
  await q.storeSecret(db, userId, encryptApiKey(secret, userId, config().encryptionKey));
}

// Decrypted secrets by user, with the ciphertext they came from: the delivery path opens the same one for every
// event of a user. A new or regenerated secret has a new ciphertext (fresh IV), so a stale entry is never used for it.
const opened = new Map<string, { ciphertext: string; secret: string | null }>();

/** decryptApiKey for the delivery path, remembered per (user, ciphertext). Never logged. */
export function openSecret(ciphertext: string, userId: string): string | null {
  const known = opened.get(userId);
  if (known?.ciphertext === ciphertext) return known.secret;
  const secret = decryptApiKey(ciphertext, userId, config().encryptionKey);
  if (opened.size >= 10_000) opened.clear(); // bounded: one entry per active user
  opened.set(userId, { ciphertext, secret });
  return secret;
}

/** The user's secret, created when missing (or when ENCRYPTION_KEY changed and the old one no longer opens). */
export async function getOrCreateSecret(db: DB, userId: string): Promise<string> {
  const ciphertext = await q.findSecretCiphertext(db, userId);
  const existing = ciphertext ? decryptApiKey(ciphertext, userId, config().encryptionKey) : null;
  if (existing) return existing;
  const secret = newSecret();
  if (ciphertext) {
    await store(db, userId, secret); // unreadable under the current ENCRYPTION_KEY: replace it
    return secret;
  }
  // Two first uses at once must agree: only the first writer's secret is kept, and both read it back.
  await q.storeSecret(db, userId, encryptApiKey(secret, userId, config().encryptionKey), true);
  const stored = await q.findSecretCiphertext(db, userId);
  return decryptApiKey(stored!, userId, config().encryptionKey) ?? secret;
}

/** A fresh secret; deliveries signed from now on use it (queued retries too, as they sign at send time). */
export async function regenerateSecret(db: DB, userId: string): Promise<string> {
  const secret = newSecret();
  await store(db, userId, secret);
  return secret;
}
