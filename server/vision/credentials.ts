// Which key a call goes out with: the user's own (stored encrypted), else one call of the shared key's
// free calls — taken only once the call has its pace slot, from the user's 100 and today's pool together,
// and given back if the provider fails it.
import type { CurrentUser } from "#app/schemas/auth";
import { FREE_POOL_USED_UP, FREE_SHARED_CALLS, NO_API_KEY, SHARED_QUOTA_USED_UP, VISION_PROBLEM, type FreeCalls } from "#app/schemas/vision";
import type { DB } from "#db/index";
import { setMoondreamKeyCiphertext } from "../accounts/queries";
import type { Session } from "../accounts/sessions";
import { config } from "../config";
import { ProblemError } from "../errors";
import { decryptApiKey, encryptApiKey } from "../secret-box";
import { hashKey } from "./pacer";
import * as queries from "./queries";

export type KeySource = "user" | "shared" | "none";

export interface Credential {
  apiKey: string | undefined;
  source: KeySource;
  /** The UTC day whose pool a shared call was taken from (to give it back to the same day). */
  day?: string;
}

export async function saveApiKey(db: DB, userId: string, apiKey: string): Promise<{ hasMoondreamApiKey: boolean }> {
  await setMoondreamKeyCiphertext(db, userId, encryptApiKey(apiKey, userId, config().encryptionKey));
  return { hasMoondreamApiKey: true };
}

/** Forgets the user's key; calls use the shared key's free quota again (what is used stays used). */
export async function deleteApiKey(db: DB, userId: string): Promise<{ hasMoondreamApiKey: boolean }> {
  await setMoondreamKeyCiphertext(db, userId, null);
  return { hasMoondreamApiKey: false };
}

/**
 * The key a call would use, nothing taken yet. A shared-key call is refused here, before it queues, when the
 * user's free calls (as read with the session) or today's pool (as last seen by this process) are spent.
 */
export function chooseCredential(user: CurrentUser, ciphertext: string | null): Credential {
  const { sharedApiKey, keyless } = config().moondream;
  if (ciphertext) {
    const apiKey = decryptApiKey(ciphertext, user.id, config().encryptionKey);
    if (apiKey === null) {
      throw new ProblemError(400, "Your saved Moondream API key can no longer be read (the server's encryption key changed). Enter it again in AI settings.");
    }
    return { apiKey, source: "user" };
  }
  if (keyless) return { apiKey: undefined, source: "none" };
  if (!sharedApiKey) throw new ProblemError(400, NO_API_KEY, { type: VISION_PROBLEM.noApiKey });
  if (user.sharedKeyUsageCount >= FREE_SHARED_CALLS) throw usedUp();
  if (poolSpentOn === utcDay()) throw poolUsedUp();
  return { apiKey: sharedApiKey, source: "shared" };
}

/** The call has its pace slot: a shared-key call now takes one of the user's free calls and one of today's pool. */
export async function takeCall(db: DB, userId: string, credential: Credential): Promise<Credential> {
  if (credential.source !== "shared") return credential;
  const taken = await queries.reserveSharedCall(db, userId, hashKey(credential.apiKey!), config().moondream.sharedDailyCalls);
  if (taken.outcome === "user-used-up") throw usedUp();
  if (taken.outcome === "pool-used-up") {
    poolSpentOn = utcDay();
    throw poolUsedUp();
  }
  return { ...credential, day: taken.day };
}

/** The provider failed the call, so it counts against neither the user's free calls nor the pool. */
export async function giveBack(db: DB, userId: string, credential: Credential): Promise<void> {
  if (credential.source === "shared" && credential.day) await queries.releaseSharedCall(db, userId, hashKey(credential.apiKey!), credential.day);
}

/** What the studio shows before a call: the user's free calls, and whether today's pool is spent. */
export async function freeCalls(db: DB, { user, keyCiphertext }: Session): Promise<FreeCalls> {
  const { sharedApiKey, sharedDailyCalls } = config().moondream;
  const [used, poolToday] = await Promise.all([
    queries.sharedCallsUsed(db, user.id),
    sharedApiKey && sharedDailyCalls > 0 ? queries.sharedCallsToday(db, hashKey(sharedApiKey)) : 0,
  ]);
  return {
    hasMoondreamApiKey: keyCiphertext !== null,
    used,
    limit: FREE_SHARED_CALLS,
    sharedKey: Boolean(sharedApiKey),
    poolExhausted: Boolean(sharedApiKey) && sharedDailyCalls > 0 && poolToday >= sharedDailyCalls,
  };
}

/** The UTC day this process last found the pool spent on: later calls that day are refused without queueing. */
let poolSpentOn: string | null = null;

function utcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

function usedUp(): ProblemError {
  return new ProblemError(402, SHARED_QUOTA_USED_UP, { type: VISION_PROBLEM.freeCallsUsedUp });
}

/** 429 until 00:00 UTC: the server is fine, this kind of call has a quota with a known reset. */
function poolUsedUp(now = new Date()): ProblemError {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const seconds = Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
  return new ProblemError(429, FREE_POOL_USED_UP, { type: VISION_PROBLEM.freePoolUsedUp, headers: { "Retry-After": String(seconds) } });
}
