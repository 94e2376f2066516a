// SQL for people-counting sessions and their snapshots, always scoped to the owner; the session's stats are
// recomputed from its snapshots in the same transaction as every change.
import { sql, type Insertable } from "kysely";
import type { DB } from "#db/index";
import type { CountSnapshotsTable } from "#db/schema";
import type { CountSource } from "#app/schemas/people-count";

export const findSession = (db: DB, userId: string, id: string) =>
  db.selectFrom("count_sessions").selectAll().where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();

export const listSessions = (db: DB, userId: string) =>
  db.selectFrom("count_sessions").selectAll().where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id", "desc").execute();

export function insertSession(db: DB, values: { user_id: string; camera_id: string | null; camera_name: string | null; title: string; source: CountSource }) {
  return db.insertInto("count_sessions").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Sets the finish time unless it is set: only the call that finishes the session gets a row back. */
export function finishSession(db: DB, userId: string, id: string) {
  return db
    .updateTable("count_sessions")
    .set({ finished_at: sql<Date>`now()` })
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .where("finished_at", "is", null)
    .returningAll()
    .executeTakeFirst();
}

export const deleteSession = (db: DB, userId: string, id: string) =>
  db.deleteFrom("count_sessions").where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();

export const snapshotBlobKeys = (db: DB, userId: string, sessionId: string) =>
  db.selectFrom("count_snapshots").select(["image_key", "thumbnail_key"]).where("user_id", "=", userId).where("session_id", "=", sessionId).execute();

export const listSnapshots = (db: DB, userId: string, sessionId: string) =>
  db.selectFrom("count_snapshots").selectAll().where("user_id", "=", userId).where("session_id", "=", sessionId).orderBy("captured_at").orderBy("id").execute();

export const findSnapshot = (db: DB, userId: string, id: string) =>
  db.selectFrom("count_snapshots").selectAll().where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();

/** Whether a snapshot row with this id exists, whoever owns it: after a failed save, to tell a lost commit from none. */
export const snapshotRowExists = async (db: DB, id: string) => Boolean(await db.selectFrom("count_snapshots").select("id").where("id", "=", id).executeTakeFirst());

export const insertSnapshot = (db: DB, values: Insertable<CountSnapshotsTable>) => db.insertInto("count_snapshots").values(values).returningAll().executeTakeFirstOrThrow();

export function correctSnapshot(
  db: DB,
  userId: string,
  snapshotId: string,
  sessionId: string | undefined,
  correction: { corrected_count: number; corrected_count_min: number | null; corrected_count_max: number | null },
) {
  let query = db.updateTable("count_snapshots").set(correction).where("user_id", "=", userId).where("id", "=", snapshotId);
  if (sessionId) query = query.where("session_id", "=", sessionId);
  return query.returningAll().executeTakeFirst();
}

/**
 * Recomputes a session's stats from its snapshots: a snapshot's count is the corrected count when a
 * person fixed it, else the model's; min/max use the low/high ends of ranges.
 */
export async function recomputeStats(db: DB, sessionId: string): Promise<void> {
  await sql`
    update count_sessions set
      snapshot_count = s.n,
      average_count = s.average,
      min_count = s.low,
      max_count = s.high,
      featured_snapshot_id = coalesce(count_sessions.featured_snapshot_id, s.first_id)
    from (
      select
        count(*)::int as n,
        avg(coalesce(corrected_count, ai_count))::float8 as average,
        min(case when corrected_count is not null then coalesce(corrected_count_min, corrected_count) else coalesce(ai_count_min, ai_count) end) as low,
        max(case when corrected_count is not null then coalesce(corrected_count_max, corrected_count) else coalesce(ai_count_max, ai_count) end) as high,
        (array_agg(id order by captured_at, id))[1] as first_id
      from count_snapshots where session_id = ${sessionId}
    ) s
    where count_sessions.id = ${sessionId}
  `.execute(db);
}
