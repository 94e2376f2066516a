// SQL for the last scoreboard reading per user, and its NOTIFY (sent by PostgreSQL only once the write commits).
import { sql, type Insertable } from "kysely";
import type { DB } from "#db/index";
import type { ScoreboardReadingsTable } from "#db/schema";

/** Replaces the user's reading (its version counts up) and returns the stored row. */
export function upsertReading(db: DB, userId: string, values: Omit<Insertable<ScoreboardReadingsTable>, "user_id">) {
  return db
    .insertInto("scoreboard_readings")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...values, version: sql`scoreboard_readings.version + 1`, updated_at: sql`now()` }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function notify(db: DB, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}

export const findReading = (db: DB, userId: string) => db.selectFrom("scoreboard_readings").selectAll().where("user_id", "=", userId).executeTakeFirst();
