// Sending a webhook: Standard Webhooks signing at send time, the connect-time address policy, 2xx only
// (3xx is a failure, never followed), retries with exponential backoff and jitter or the receiver's
// Retry-After, and switching the webhook off after a 410 or a long run of failures.
import { createHmac } from "node:crypto";
import type { DB } from "#db/index";
import { config } from "../config";
import { publicOnly, type AddressPolicy } from "../net/address-policy";
import { guardedPost, OutboundError, type GuardedResponse } from "../net/guarded-post";
import { logger } from "../logger";
import * as q from "./queries";

export function webhookPolicy(): AddressPolicy {
  return publicOnly(config().webhooks.allowedCidrs, config().webhooks.blockedCidrs);
}

export interface Attempt {
  ok: boolean;
  status: number | null;
  /** What a person reads: "HTTP 200", "HTTP 302 (redirects are not followed)", "Refused: …", "No answer within 10 s". */
  message: string;
  retryAfterMs: number | null;
  refused: boolean;
}

/** Seconds or an HTTP date, as RFC 9110 allows; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Delay before attempt `next` (2, 3, …): base × 4^(next-2), capped at a day, with "equal jitter" (half
 * fixed, half random) so a receiver that comes back isn't hit by every queued retry at once. A
 * Retry-After from the receiver wins (capped at a day too).
 */
export function retryDelayMs(next: number, baseMs: number, retryAfterMs: number | null, random = Math.random): number {
  if (retryAfterMs !== null) return Math.min(DAY_MS, retryAfterMs);
  const full = Math.min(DAY_MS, baseMs * 4 ** Math.max(0, next - 2));
  return Math.round(full / 2 + (random() * full) / 2);
}

// Signing keys by secret (few: one per active user), decoded once. The HMAC itself is node:crypto's: the
// standardwebhooks package signs in pure JavaScript, several times slower per event, and signing is on every
// attempt's path. Same bytes as the package's sign() (server/webhooks/signing.test.ts checks it verifies).
const signingKeys = new Map<string, Buffer>();

function signingKey(secret: string): Buffer {
  let key = signingKeys.get(secret);
  if (!key) {
    key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
    if (key.length === 0) throw new Error("A webhook secret can't be empty");
    if (signingKeys.size >= 10_000) signingKeys.clear();
    signingKeys.set(secret, key);
  }
  return key;
}

/** Standard Webhooks v1: "v1," + base64 HMAC-SHA256 of "{id}.{unix seconds}.{raw body}". */
export function signature(secret: string, id: string, at: Date, body: string): string {
  const seconds = Math.floor(at.getTime() / 1000);
  return `v1,${createHmac("sha256", signingKey(secret)).update(`${id}.${seconds}.${body}`).digest("base64")}`;
}

export function signedHeaders(secret: string, id: string, body: string, at = new Date()): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "Framewise-Webhooks/1",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature(secret, id, at, body),
  };
}

/** One signed POST; never throws. */
export async function attemptDelivery(url: string, secret: string, id: string, body: string, policy = webhookPolicy()): Promise<Attempt> {
  let response: GuardedResponse;
  try {
    response = await guardedPost(url, body, { policy, timeoutMs: config().webhooks.timeoutMs, headers: signedHeaders(secret, id, body) });
  } catch (error) {
    const outbound = error instanceof OutboundError ? error : new OutboundError(String(error));
    return { ok: false, status: null, message: outbound.message, retryAfterMs: null, refused: outbound.refused };
  }
  const { status } = response;
  const ok = status >= 200 && status < 300;
  const message = status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
  return { ok, status, message, retryAfterMs: ok ? null : parseRetryAfter(response.headers["retry-after"]), refused: false };
}

/** What a failed attempt means for its delivery: due again at `nextAttemptAt`, or final. */
export interface FailureVerdict {
  status: "retrying" | "failed";
  nextAttemptAt: Date | null;
  /** Why the webhook was switched off by this failure, or null. */
  disableReason: string | null;
}

/**
 * A failed attempt: the endpoint's failure run grows (switching the webhook off after a 410 or a long run), in a
 * transaction of its own, and the delivery is either final or due again after the backoff. The delivery row and its
 * wake-up job are the caller's to write (the dispatcher writes them with the row's batch, which holds its lock). Should
 * the endpoint row stay locked (its account being deleted), the failure is judged without growing the run.
 */
export async function judgeFailure(db: DB, userId: string, attempt: number, result: Attempt): Promise<FailureVerdict> {
  const now = new Date();
  try {
    // The caller holds the delivery row's lock meanwhile: the wait for the endpoint row is bounded.
    return await q.withShortLockWait(db, (trx) => countFailure(trx, userId, attempt, result, now));
  } catch (error) {
    if (!q.isLockTimeout(error)) throw error;
    logger.warn({ userId }, "webhook failure not counted: its endpoint row stayed locked");
    return verdict(result.refused, attempt, result, now, null);
  }
}

async function countFailure(trx: DB, userId: string, attempt: number, result: Attempt, now: Date): Promise<FailureVerdict> {
  const { disableAfterFailures, disableAfterMinutes } = config().webhooks;
  const health = await q.growFailureRun(trx, userId);
  // Two deliveries failing at once queue on this row: the first to cross the line switches the webhook off
  // and says why; the later one finds it off and must not overwrite that reason with its own count.
  const alreadyOff = !health.webhook_enabled;
  let disableReason: string | null = null;
  if (alreadyOff) {
    // keep the reason of whoever switched it off
  } else if (result.status === 410) disableReason = "the receiver answered 410 Gone";
  else if (health.failure_streak >= disableAfterFailures && now.getTime() - (health.failing_since?.getTime() ?? now.getTime()) >= disableAfterMinutes * 60_000) {
    disableReason = `${health.failure_streak} deliveries in a row failed since ${health.failing_since!.toISOString()} (last: ${result.message})`;
  }
  if (disableReason) {
    await q.switchOff(trx, userId, disableReason, now);
    logger.warn({ userId, reason: disableReason }, "webhook switched off");
  }
  // Policy refusals won't change on retry; neither will anything once the webhook is off.
  return verdict(alreadyOff || disableReason !== null || result.refused, attempt, result, now, disableReason);
}

/** Final, or due again after the backoff (or the receiver's Retry-After); the last attempt is always final. */
function verdict(final: boolean, attempt: number, result: Attempt, now: Date, disableReason: string | null): FailureVerdict {
  const { maxAttempts, retryBaseMs } = config().webhooks;
  if (final || attempt >= maxAttempts) return { status: "failed", nextAttemptAt: null, disableReason };
  return { status: "retrying", nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempt + 1, retryBaseMs, result.retryAfterMs)), disableReason };
}
