// SQL of the vision service: a user's stored key and the shared-key quota, always scoped to one user.
import { sql } from "kysely";
import { FREE_SHARED_CALLS } from "../../app/schemas/vision";
import type { DB } from "../../db/index";

export async function findKeyCiphertext(db: DB, userId: string): Promise<string | null> {
  const row = await db.selectFrom("users").select("moondream_key_ciphertext").where("id", "=", userId).executeTakeFirst();
  return row?.moondream_key_ciphertext ?? null;
}

export async function setKeyCiphertext(db: DB, userId: string, ciphertext: string | null): Promise<void> {
  await db.updateTable("users").set({ moondream_key_ciphertext: ciphertext }).where("id", "=", userId).execute();
}

/**
 * Takes one shared-key call, atomically: the row lock of a single UPDATE serialises concurrent callers, and
 * the `< limit` condition is re-checked after the lock, so no race can go past the limit. Returns the new
 * count, or null when the quota is used up.
 */
export async function reserveSharedCall(db: DB, userId: string): Promise<number | null> {
  const row = await db
    .updateTable("users")
    .set({ shared_key_calls_used: sql<number>`shared_key_calls_used + 1` })
    .where("id", "=", userId)
    .where("shared_key_calls_used", "<", FREE_SHARED_CALLS)
    .returning("shared_key_calls_used")
    .executeTakeFirst();
  return row?.shared_key_calls_used ?? null;
}

/** Gives a call back after the provider failed it (never below zero). */
export async function releaseSharedCall(db: DB, userId: string): Promise<void> {
  await db
    .updateTable("users")
    .set({ shared_key_calls_used: sql<number>`shared_key_calls_used - 1` })
    .where("id", "=", userId)
    .where("shared_key_calls_used", ">", 0)
    .execute();
}
