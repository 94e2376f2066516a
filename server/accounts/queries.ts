// SQL for users and sessions.
import { sql } from "kysely";
import type { DB } from "#db/index";
import { retryOnDeadlock } from "#db/deadlocks";
import type { UserRole } from "#db/schema";
import { forgetSession, forgetUser, sessionEndedNotice, userChangedNotice } from "./session-notices";

export const userColumns = ["users.id", "users.username", "users.role", "users.created_at", "users.shared_key_calls_used", "users.moondream_key_ciphertext"] as const;

export function findUserByUsername(db: DB, usernameKey: string) {
  return db
    .selectFrom("users")
    .select([...userColumns, "users.password_hash"])
    .where("username_key", "=", usernameKey)
    .executeTakeFirst();
}

/** Inserts a user with the role decided inside the same transaction (sign-ups are serialised by a lock). */
export function insertUser(db: DB, input: { username: string; usernameKey: string; passwordHash: string }, decideRole: (trx: DB) => Promise<UserRole>) {
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

export async function setUserRole(db: DB, usernameKey: string, role: UserRole) {
  const { rows } = await sql<{ id: string; username: string; role: UserRole }>`
    with changed as (update users set role = ${role} where username_key = ${usernameKey} returning id, username, role)
    select id, username, role, ${userChangedNotice(sql.ref("id"))} from changed`.execute(db);
  if (rows[0]) forgetUser(rows[0].id);
  return rows[0];
}

export function insertSession(db: DB, session: { id: string; userId: string; expiresAt: Date; userAgent: string | null; ip: string | null }) {
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

export async function deleteSession(db: DB, sessionId: string): Promise<void> {
  await sql`with ended as (delete from sessions where id = ${sessionId} returning id) select ${sessionEndedNotice(sql.ref("id"))} from ended`.execute(db);
  forgetSession(sessionId);
}

export function deleteExpiredSessions(db: DB) {
  return db.deleteFrom("sessions").where("expires_at", "<=", new Date()).execute();
}

/**
 * One attempt under a fixed-window limit, in one statement: the count goes up only while the window has room (or
 * has passed). `reserved` is 0 when refused; `retry_after` is the seconds left in the window.
 */
export async function reserveAttempt(db: DB, key: string, max: number, windowMinutes: number): Promise<{ reserved: number; retry_after: number | null }> {
  const window = `${windowMinutes} minutes`;
  const { rows } = await sql<{ reserved: number; retry_after: number | null }>`
    with reserved as (
      insert into attempt_counters as c (key, attempts, window_started_at) values (${key}, 1, now())
      on conflict (key) do update set
        attempts = case when c.window_started_at <= now() - ${window}::interval then 1 else c.attempts + 1 end,
        window_started_at = case when c.window_started_at <= now() - ${window}::interval then now() else c.window_started_at end
      where c.window_started_at <= now() - ${window}::interval or c.attempts < ${max}
      returning 1
    )
    select (select count(*) from reserved)::int as reserved,
      (select ceil(extract(epoch from window_started_at + ${window}::interval - now()))::int from attempt_counters where key = ${key}) as retry_after
  `.execute(db);
  return rows[0]!;
}

export async function giveBackAttempts(db: DB, keys: string[]): Promise<void> {
  await db
    .updateTable("attempt_counters")
    .set({ attempts: sql`greatest(attempts - 1, 0)` })
    .where("key", "in", keys)
    .execute();
}

export async function clearAttempts(db: DB, key: string): Promise<void> {
  await db.deleteFrom("attempt_counters").where("key", "=", key).execute();
}

export async function adminExists(db: DB): Promise<boolean> {
  return Boolean(await db.selectFrom("users").select("id").where("role", "=", "admin").limit(1).executeTakeFirst());
}

/** Deletes the user (their sessions and rows go by cascade), again if a background writer's deadlock aborted it. */
export async function deleteUser(db: DB, userId: string): Promise<{ id: string } | undefined> {
  const { rows } = await retryOnDeadlock(() =>
    sql<{ id: string }>`
    with gone as (delete from users where id = ${userId} returning id) select id, ${userChangedNotice(sql.ref("id"))} from gone`.execute(db),
  );
  forgetUser(userId);
  return rows[0];
}

/** The user with what their AI calls need (their key), for work done on their behalf with no request (monitors, pipelines). */
export const findUserById = (db: DB, userId: string) =>
  db
    .selectFrom("users")
    .select([...userColumns])
    .where("id", "=", userId)
    .executeTakeFirst();

export const findUserIdByUsernameKey = (db: DB, usernameKey: string) => db.selectFrom("users").select("id").where("username_key", "=", usernameKey).executeTakeFirst();

/** The administrator setup token (one row at most), sealed. */
export async function findSetupTokenCiphertext(db: DB): Promise<string | null> {
  return (await db.selectFrom("admin_setup_token").select("token_ciphertext").executeTakeFirst())?.token_ciphertext ?? null;
}

/** Stores a sealed setup token; with `replace` false, one already stored is kept (every process prints the same). */
export async function storeSetupToken(db: DB, tokenCiphertext: string, replace: boolean): Promise<void> {
  if (replace) await db.updateTable("admin_setup_token").set({ token_ciphertext: tokenCiphertext }).execute();
  else
    await db
      .insertInto("admin_setup_token")
      .values({ token_ciphertext: tokenCiphertext })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
}

export async function deleteSetupToken(db: DB): Promise<void> {
  await db.deleteFrom("admin_setup_token").execute();
}

/** The user's Moondream key, sealed by the vision domain (null forgets it). */
export async function setMoondreamKeyCiphertext(db: DB, userId: string, ciphertext: string | null): Promise<void> {
  await sql`
    with changed as (update users set moondream_key_ciphertext = ${ciphertext} where id = ${userId} returning id)
    select ${userChangedNotice(sql.ref("id"))} from changed`.execute(db);
  forgetUser(userId);
}
