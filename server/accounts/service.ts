// Accounts: sign-up, sign-in (throttled), roles, and the current-user shape the API returns.
import { INVALID_CREDENTIALS, USERNAME_TAKEN, type CurrentUser, type LoginInput, type SignupInput } from "../../app/schemas/auth";
import type { DB } from "../../db/index";
import type { UserRole } from "../../db/schema";
import { ProblemError } from "../http/problem";
import { blobKeys, blobStore } from "../storage/blob-store";
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

export async function signUp(db: DB, input: SignupInput): Promise<CurrentUser> {
  const passwordHash = await hashPassword(input.password);
  const user = await queries.insertUser(db, { username: input.username, usernameKey: usernameKeyOf(input.username), passwordHash });
  if (!user) throw new ProblemError(409, USERNAME_TAKEN, { errors: { username: [USERNAME_TAKEN] } });
  return toCurrentUser(user);
}

export async function signIn(db: DB, input: LoginInput, ip: string | null): Promise<CurrentUser> {
  const usernameKey = usernameKeyOf(input.username);
  const wait = await throttle.secondsUntilAllowed(db, { usernameKey, ip });
  if (wait > 0) {
    const minutes = Math.ceil(wait / 60);
    throw new ProblemError(429, `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
      headers: { "Retry-After": String(wait) },
    });
  }
  const user = await queries.findUserByUsername(db, usernameKey);
  const valid = user ? await verifyPassword(user.password_hash, input.password) : (await verifyAgainstDummy(input.password), false);
  if (!user || !valid) {
    await throttle.recordFailure(db, { usernameKey, ip });
    throw new ProblemError(401, INVALID_CREDENTIALS);
  }
  await throttle.clearUsernameFailures(db, usernameKey);
  return toCurrentUser(user);
}

export async function setRole(db: DB, username: string, role: UserRole) {
  const updated = await queries.setUserRole(db, usernameKeyOf(username), role);
  if (!updated) throw new ProblemError(404, `No user named '${username}'`);
  return updated;
}

/** Deletes the account and everything of theirs: rows by cascade, then their image blobs. */
export async function deleteUser(db: DB, userId: string): Promise<void> {
  const deleted = await db.deleteFrom("users").where("id", "=", userId).returning("id").executeTakeFirst();
  if (!deleted) throw new ProblemError(404, "User not found");
  await blobStore().deletePrefix(blobKeys.userPrefix(userId));
}

export async function findUserIdByUsername(db: DB, username: string): Promise<string> {
  const row = await db.selectFrom("users").select("id").where("username_key", "=", usernameKeyOf(username)).executeTakeFirst();
  if (!row) throw new ProblemError(404, `No user named '${username}'`);
  return row.id;
}
