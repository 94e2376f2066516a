// SQL of the vision service: the per-user free calls and the shared key's daily pool, always scoped to one user
// (the stored key is written through server/accounts/queries.ts, which owns `users`).
import { sql } from "kysely";
import { FREE_SHARED_CALLS } from "#app/schemas/vision";
import type { DB } from "#db/index";
import { forgetUser, userChangedNotice } from "../accounts/session-notices";

export type SharedReservation = { outcome: "reserved"; used: number; day: string } | { outcome: "user-used-up" } | { outcome: "pool-used-up" };

/**
 * Takes one shared-key call of the user's free calls and of today's (UTC) pool, in one statement: the user's
 * row is locked first, the pool is counted only if the user has calls left, and the user's count only if the
 * pool had room, so neither is ever taken without the other and no race goes past either limit.
 * `dailyLimit` 0 is no pool limit (the calls are still counted). The one write of `users` outside accounts: the
 * user's counter and the day's pool must move in one statement.
 */
export async function reserveSharedCall(db: DB, userId: string, keyHash: string, dailyLimit: number): Promise<SharedReservation> {
  const { rows } = await sql<{ user_ok: boolean | null; day: string | null; used: number | null }>`
    with u as (
      select shared_key_calls_used < ${FREE_SHARED_CALLS} as ok from users where id = ${userId} for update
    ), pool as (
      insert into shared_key_daily_calls as d (key_hash, day, calls)
      select ${keyHash}, (now() at time zone 'utc')::date, 1 where (select ok from u)
      on conflict (key_hash, day) do update set calls = d.calls + 1 where ${dailyLimit}::int = 0 or d.calls < ${dailyLimit}::int
      returning day::text
    ), taken as (
      update users set shared_key_calls_used = shared_key_calls_used + 1
      where id = ${userId} and exists (select 1 from pool)
      returning shared_key_calls_used
    )
    select (select ok from u) as user_ok, (select day from pool) as day, (select shared_key_calls_used from taken) as used,
      (select ${userChangedNotice(sql`${userId}`)} from taken) as notified`.execute(db);
  const row = rows[0];
  // Every process's session cache shows the new count (GET /api/auth/me's sharedKeyUsageCount), this one at once.
  if (row?.used != null) forgetUser(userId);
  if (!row?.user_ok) return { outcome: "user-used-up" };
  if (row.day === null || row.used === null) return { outcome: "pool-used-up" };
  return { outcome: "reserved", used: row.used, day: row.day };
}

/** Gives a call back to the user and to the day's pool it was taken from (the provider failed it). */
export async function releaseSharedCall(db: DB, userId: string, keyHash: string, day: string): Promise<void> {
  await sql`
    with u as (
      update users set shared_key_calls_used = shared_key_calls_used - 1 where id = ${userId} and shared_key_calls_used > 0 returning id
    ), pool as (
      update shared_key_daily_calls set calls = calls - 1 where key_hash = ${keyHash} and day = ${day}::date and calls > 0
    )
    select ${userChangedNotice(sql.ref("id"))} from u`.execute(db);
  forgetUser(userId);
}

/** Calls taken from the shared key's pool today (UTC). */
export async function sharedCallsToday(db: DB, keyHash: string): Promise<number> {
  const { rows } = await sql<{ calls: number }>`
    select calls from shared_key_daily_calls where key_hash = ${keyHash} and day = (now() at time zone 'utc')::date`.execute(db);
  return rows[0]?.calls ?? 0;
}

export async function sharedCallsUsed(db: DB, userId: string): Promise<number> {
  const row = await db.selectFrom("users").select("shared_key_calls_used").where("id", "=", userId).executeTakeFirst();
  return row?.shared_key_calls_used ?? 0;
}

/**
 * Books the key's next pace slot `intervalMs` after its last one (or now): booked with the wait until it, or, when
 * the slot is further than `withinMs` away, not booked, with the wait until the slot taken. The row lock of the
 * upsert orders concurrent bookers; clock_timestamp() is read after it is taken.
 */
export async function bookPaceSlot(db: DB, keyHash: string, intervalMs: number, withinMs: number | null): Promise<{ booked: boolean; waitMs: number }> {
  const within = withinMs;
  const { rows } = await sql<{ wait_ms: number }>`
    insert into vision_pace_slots as p (key_hash, next_slot)
    values (${keyHash}, clock_timestamp() + ${intervalMs} * interval '1 millisecond')
    on conflict (key_hash) do update
      set next_slot = greatest(clock_timestamp(), p.next_slot) + ${intervalMs} * interval '1 millisecond'
      where ${within}::float8 is null or p.next_slot <= clock_timestamp() + ${within}::float8 * interval '1 millisecond'
    returning (extract(epoch from (next_slot - clock_timestamp())) * 1000)::float8 - ${intervalMs} as wait_ms`.execute(db);
  if (rows[0]) return { booked: true, waitMs: Math.max(0, rows[0].wait_ms) };
  const taken = await sql<{ wait_ms: number }>`
    select (extract(epoch from (next_slot - clock_timestamp())) * 1000)::float8 as wait_ms from vision_pace_slots where key_hash = ${keyHash}`.execute(db);
  return { booked: false, waitMs: Math.max(0, taken.rows[0]?.wait_ms ?? 0) };
}

/** No slot of the key before `ms` from now (the provider asked to wait). */
export async function holdOffPaceSlots(db: DB, keyHash: string, ms: number): Promise<void> {
  await sql`
    insert into vision_pace_slots as p (key_hash, next_slot) values (${keyHash}, clock_timestamp() + ${ms} * interval '1 millisecond')
    on conflict (key_hash) do update set next_slot = greatest(p.next_slot, excluded.next_slot)`.execute(db);
}
