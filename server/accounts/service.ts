// Accounts: sign-up and sign-in (both throttled), roles, and the current-user shape the API returns.
import { INVALID_CREDENTIALS, USERNAME_TAKEN, type CurrentUser, type LoginInput, type SignupInput } from "#app/schemas/auth";
import type { DB } from "#db/index";
import type { UserRole } from "#db/schema";
import { ProblemError } from "../errors";
import { blobKeys, discardBlobPrefix, type BlobStore } from "../storage/blob-store";
import { discardSetupToken, roleForNewAccount } from "./first-admin";
import type { Session } from "./session-types";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "./passwords";
import * as queries from "./queries";
import * as throttle from "./throttle";

type UserRecord = NonNullable<Awaited<ReturnType<typeof queries.findUserBySession>>> | Awaited<ReturnType<typeof queries.insertUser>>;

export function usernameKeyOf(username: string): string {
  return username.trim().toLowerCase();
}

export function toCurrentUser(row: NonNullable<UserRecord>): CurrentUser {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    hasMoondreamApiKey: row.moondream_key_ciphertext !== null,
    sharedKeyUsageCount: row.shared_key_calls_used,
    createdAt: row.created_at.toISOString(),
  };
}

export interface SignUpOrigin {
  ip: string | null;
  /** See isFromThisMachine: a sign-up from the server's own machine may become the first administrator. */
  fromThisMachine: boolean;
}

/** A user's session for AI calls made on their behalf with no request (a monitor's tick, a pipeline's event); null once the account is gone. */
export async function ownerSession(db: DB, userId: string): Promise<Session | null> {
  const user = await queries.findUserById(db, userId);
  return user ? { user: toCurrentUser(user), keyCiphertext: user.moondream_key_ciphertext } : null;
}

export async function signUp(db: DB, input: SignupInput, origin: SignUpOrigin): Promise<CurrentUser> {
  const limits = throttle.signUpLimits(origin.ip);
  const reservation = await throttle.reserve(db, limits);
  if (!reservation.allowed) {
    throw new ProblemError(429, `Too many new accounts from your address. ${throttle.tryAgainIn(reservation.retryAfterSeconds)}`, {
      headers: { "Retry-After": String(reservation.retryAfterSeconds) },
    });
  }
  try {
    const passwordHash = await hashPassword(input.password);
    const role = roleForNewAccount({ fromThisMachine: origin.fromThisMachine, setupToken: input.setupToken || undefined });
    const user = await queries.insertUser(db, { username: input.username, usernameKey: usernameKeyOf(input.username), passwordHash }, role);
    if (!user) throw new ProblemError(409, USERNAME_TAKEN, { errors: { username: [USERNAME_TAKEN] } });
    return toCurrentUser(user);
  } catch (error) {
    // Only accounts made count against the address (a taken name or a wrong setup token is not one).
    await throttle.giveBack(db, limits);
    throw error;
  }
}

export async function signIn(db: DB, input: LoginInput, ip: string | null): Promise<CurrentUser> {
  const usernameKey = usernameKeyOf(input.username);
  const limits = throttle.signInLimits(usernameKey, ip);
  // The attempt counts as a failure from before the password is checked: parallel guesses each take a slot.
  const reservation = await throttle.reserve(db, limits.all);
  if (!reservation.allowed) {
    throw new ProblemError(429, `Too many failed sign-in attempts. ${throttle.tryAgainIn(reservation.retryAfterSeconds)}`, {
      headers: { "Retry-After": String(reservation.retryAfterSeconds) },
    });
  }
  const user = await queries.findUserByUsername(db, usernameKey);
  const valid = user ? await verifyPassword(user.password_hash, input.password) : (await verifyAgainstDummy(input.password), false);
  if (!user || !valid) throw new ProblemError(401, INVALID_CREDENTIALS);
  // The right password: this address's guesses at the account are forgiven, and this attempt was no failure
  // (the address's count over other accounts stays: one good account must not unlock guessing the others).
  await throttle.clear(db, limits.pair);
  await throttle.giveBack(db, [limits.perIp, limits.perUsername]);
  return toCurrentUser(user);
}

export async function setRole(db: DB, username: string, role: UserRole) {
  const updated = await queries.setUserRole(db, usernameKeyOf(username), role);
  if (!updated) throw new ProblemError(404, `No user named '${username}'`);
  if (role === "admin") await discardSetupToken(db);
  return updated;
}

/** Deletes the account and everything of theirs: rows by cascade, then their image blobs. */
export async function deleteUser(db: DB, blobs: BlobStore, userId: string): Promise<void> {
  const deleted = await queries.deleteUser(db, userId);
  if (!deleted) throw new ProblemError(404, "User not found");
  await discardBlobPrefix(blobs, blobKeys.userPrefix(userId));
}

export async function findUserIdByUsername(db: DB, username: string): Promise<string> {
  const row = await queries.findUserIdByUsernameKey(db, usernameKeyOf(username));
  if (!row) throw new ProblemError(404, `No user named '${username}'`);
  return row.id;
}
