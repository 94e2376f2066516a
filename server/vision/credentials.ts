// Which key a call goes out with: the user's own (stored encrypted), else one call of the shared key's
// free quota, reserved before the provider is called and given back if the provider fails it.
import type { CurrentUser } from "../../app/schemas/auth";
import { NO_API_KEY, SHARED_QUOTA_USED_UP, VISION_PROBLEM } from "../../app/schemas/vision";
import type { DB } from "../../db/index";
import { keyCiphertextReadWithSession } from "../accounts/sessions";
import { config } from "../config";
import { ProblemError } from "../http/problem";
import { decryptApiKey, encryptApiKey } from "./key-crypto";
import * as queries from "./queries";

export type KeySource = "user" | "shared" | "none";

export interface Credential {
  apiKey: string | undefined;
  source: KeySource;
}

export async function saveApiKey(db: DB, userId: string, apiKey: string): Promise<{ hasMoondreamApiKey: boolean }> {
  await queries.setKeyCiphertext(db, userId, encryptApiKey(apiKey, userId, config().encryptionKey));
  return { hasMoondreamApiKey: true };
}

/** Forgets the user's key; calls use the shared key's free quota again (what is used stays used). */
export async function deleteApiKey(db: DB, userId: string): Promise<{ hasMoondreamApiKey: boolean }> {
  await queries.setKeyCiphertext(db, userId, null);
  return { hasMoondreamApiKey: false };
}

/** The user's stored key, still sealed: the one read with the session, else looked up (while the frame is checked). */
export async function findStoredKey(db: DB, user: CurrentUser): Promise<string | null> {
  const readWithSession = keyCiphertextReadWithSession(user);
  return readWithSession !== undefined ? readWithSession : queries.findKeyCiphertext(db, user.id);
}

/** The key for one call: the user's own (from findStoredKey), else one reserved call of the shared quota. */
export async function acquireCredential(db: DB, userId: string, ciphertext: string | null): Promise<Credential> {
  const { sharedApiKey, keyless } = config().moondream;
  if (ciphertext) {
    const apiKey = decryptApiKey(ciphertext, userId, config().encryptionKey);
    if (apiKey === null) {
      throw new ProblemError(400, "Your saved Moondream API key can no longer be read (the server's encryption key changed). Enter it again in AI settings.");
    }
    return { apiKey, source: "user" };
  }
  if (keyless) return { apiKey: undefined, source: "none" };
  if (!sharedApiKey) throw new ProblemError(400, NO_API_KEY, { type: VISION_PROBLEM.noApiKey });
  if ((await queries.reserveSharedCall(db, userId)) === null) throw new ProblemError(402, SHARED_QUOTA_USED_UP, { type: VISION_PROBLEM.freeCallsUsedUp });
  return { apiKey: sharedApiKey, source: "shared" };
}

/** The provider failed the call, so it does not count against the free quota. */
export async function giveBack(db: DB, userId: string, credential: Credential): Promise<void> {
  if (credential.source === "shared") await queries.releaseSharedCall(db, userId);
}
