// Attempt counters in fixed windows, kept in PostgreSQL so every app server behind a load balancer agrees.
// An attempt is reserved before the work it guards (argon2, creating an account) in one statement that
// refuses once the window is full, so parallel requests cannot all slip past a count read earlier.
import ipaddr from "ipaddr.js";
import type { DB } from "#db/index";
import { config } from "../config";
import * as q from "./queries";

export interface Limit {
  key: string;
  max: number;
  windowMinutes: number;
}

export type Reservation = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Reserves one attempt under one limit: the count goes up only while the window has room (or has passed). */
async function reserveOne(db: DB, { key, max, windowMinutes }: Limit): Promise<Reservation> {
  const row = await q.reserveAttempt(db, key, max, windowMinutes);
  if (row.reserved > 0) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, row.retry_after ?? windowMinutes * 60) };
}

/**
 * Reserves an attempt under every limit, in order, or under none: when one is full, those already reserved are
 * given back, so refused requests never count (guesses refused for one address don't fill the account's ceiling).
 */
export async function reserve(db: DB, limits: readonly Limit[]): Promise<Reservation> {
  for (const [index, limit] of limits.entries()) {
    const outcome = await reserveOne(db, limit);
    if (!outcome.allowed) {
      await giveBack(db, limits.slice(0, index));
      return outcome;
    }
  }
  return { allowed: true };
}

/** Returns reserved attempts that turned out not to count (a successful sign-in, a sign-up that failed). */
export async function giveBack(db: DB, limits: readonly Limit[]): Promise<void> {
  if (!limits.length) return;
  await q.giveBackAttempts(
    db,
    limits.map((l) => l.key),
  );
}

export async function clear(db: DB, limit: Limit): Promise<void> {
  await q.clearAttempts(db, limit.key);
}

/** "Try again in 3 minutes." */
export function tryAgainIn(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * Whom an address's count belongs to: an IPv4 address (IPv4-mapped IPv6 included), or an IPv6 /64, since one
 * subscriber or server usually holds a whole /64 and could otherwise take a fresh address for every guess.
 */
export function addressKey(ip: string | null): string {
  if (!ip || !ipaddr.isValid(ip)) return ip || "unknown";
  const address = ipaddr.process(ip);
  if (address.kind() === "ipv4") return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(":")}::/64`;
}

/**
 * Sign-in limits, most specific first: one account from one address (a stranger locks the owner out of
 * the stranger's address only), one address over all accounts, and one account over all addresses, far
 * higher, so guesses spread over many addresses still stop.
 */
export function signInLimits(usernameKey: string, ip: string | null) {
  const { maxFailuresPerUsernameAndIp, maxFailuresPerIp, maxFailuresPerUsername, windowMinutes } = config().signInThrottle;
  const address = addressKey(ip);
  const pair: Limit = { key: `signin:pair:${address} ${usernameKey}`, max: maxFailuresPerUsernameAndIp, windowMinutes };
  const perIp: Limit = { key: `signin:ip:${address}`, max: maxFailuresPerIp, windowMinutes };
  const perUsername: Limit = { key: `signin:user:${usernameKey}`, max: maxFailuresPerUsername, windowMinutes };
  return { pair, perIp, perUsername, all: [pair, perIp, perUsername] };
}

/** Accounts created from one address in an hour; none when SIGNUP_MAX_PER_IP_PER_HOUR is 0. */
export function signUpLimits(ip: string | null): Limit[] {
  const max = config().signUpsPerIpPerHour;
  return max > 0 ? [{ key: `signup:ip:${addressKey(ip)}`, max, windowMinutes: 60 }] : [];
}
