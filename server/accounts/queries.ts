// SQL for users and sessions.
import { sql } from "kysely";
import type { DB } from "../../db/index";
import type { UserRole } from "../../db/schema";

export const userColumns = [
  "users.id",
  "users.username",
  "users.role",
  "users.created_at",
  "users.shared_key_calls_used",
  "users.moondream_key_ciphertext",
] as const;

export function findUserByUsername(db: DB, usernameKey: string) {
  return db
    .selectFrom("users")
    .select([...userColumns, "users.password_hash"])
    .where("username_key", "=", usernameKey)
    .executeTakeFirst();
}

/** Inserts a user with the role decided inside the same transaction (sign-ups are serialised by a lock). */
export function insertUser(
  db: DB,
  input: { username: string; usernameKey: string; passwordHash: string },
  decideRole: (trx: DB) => Promise<UserRole>,
) {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('framewise.signup'))`.execute(trx);
    const existing = await trx.selectFrom("users").select("id").where("username_key", "=", input.usernameKey).executeTakeFirst();
    if (existing) return undefined;
    return trx
      .insertInto("users")
      .values({
        username: input.username,
        username_key: input.usernameKey,
        password_hash: input.passwordHash,
        role: await decideRole(trx),
      })
      .returning(userColumns)
      .executeTakeFirstOrThrow();
  });
}

export function setUserRole(db: DB, usernameKey: string, role: UserRole) {
  return db.updateTable("users").set({ role }).where("username_key", "=", usernameKey).returning(["id", "username", "role"]).executeTakeFirst();
}

export function insertSession(
  db: DB,
  session: { id: string; userId: string; expiresAt: Date; userAgent: string | null; ip: string | null },
) {
  return db
    .insertInto("sessions")
    .values({
      id: session.id,
      user_id: session.userId,
      expires_at: session.expiresAt,
      last_seen_at: new Date(),
      user_agent: session.userAgent,
      ip: session.ip,
    })
    .execute();
}

/** The live session's user, in one round trip. */
export function findUserBySession(db: DB, sessionId: string) {
  return db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([...userColumns, "sessions.last_seen_at", "sessions.expires_at"])
    .where("sessions.id", "=", sessionId)
    .where("sessions.expires_at", ">", new Date())
    .executeTakeFirst();
}

/** Sliding expiry, written at most once an hour per session to keep reads cheap. */
export function touchSession(db: DB, sessionId: string, expiresAt: Date) {
  return db.updateTable("sessions").set({ last_seen_at: new Date(), expires_at: expiresAt }).where("id", "=", sessionId).execute();
}

export function deleteSession(db: DB, sessionId: string) {
  return db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}

export function deleteExpiredSessions(db: DB) {
  return db.deleteFrom("sessions").where("expires_at", "<=", new Date()).execute();
}
