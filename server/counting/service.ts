// People-counting sessions and their snapshots. Session stats always reflect corrected counts where a
// person fixed them, and are recomputed in the same transaction as every change.
import { randomUUID } from "node:crypto";
import { sql, type Selectable, type Transaction } from "kysely";
import { defaultSessionTitle, type CountSession, type CountSnapshot, type SnapshotCorrection } from "../../app/schemas/people-count";
import type { DB } from "../../db/index";
import { onPeopleCounted, onSessionFinished } from "../automation/hooks";
import type { CountSessionsTable, CountSnapshotsTable, Database } from "../../db/schema";
import { referencedCamera } from "../cameras/service";
import { notFound, ProblemError } from "../errors";
import { intakeImage } from "../images/intake";
import { blobKeys, blobStore, putAll } from "../storage/blob-store";

function toSession(row: Selectable<CountSessionsTable>): CountSession {
  return {
    id: row.id,
    cameraId: row.camera_id,
    cameraName: row.camera_name,
    title: row.title,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    isActive: row.finished_at === null,
    featuredPhotoId: row.featured_snapshot_id,
    averageCount: row.average_count === null ? null : Math.round(row.average_count * 10) / 10,
    minCount: row.min_count,
    maxCount: row.max_count,
    snapshotCount: row.snapshot_count,
  };
}

function toSnapshot(row: Selectable<CountSnapshotsTable>): CountSnapshot {
  return {
    id: row.id,
    sessionId: row.session_id,
    capturedAt: row.captured_at.toISOString(),
    aiCount: row.ai_count,
    aiCountMin: row.ai_count_min,
    aiCountMax: row.ai_count_max,
    correctedCount: row.corrected_count,
    correctedCountMin: row.corrected_count_min,
    correctedCountMax: row.corrected_count_max,
    imageUrl: `/api/people-count/snapshots/${row.id}/image`,
    thumbnailUrl: `/api/people-count/snapshots/${row.id}/thumbnail`,
  };
}

const findSessionRow = (db: DB | Transaction<Database>, userId: string, id: string) =>
  db.selectFrom("count_sessions").selectAll().where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();

export async function listSessions(db: DB, userId: string): Promise<CountSession[]> {
  const rows = await db.selectFrom("count_sessions").selectAll().where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id", "desc").execute();
  return rows.map(toSession);
}

export async function getSession(db: DB, userId: string, id: string): Promise<CountSession> {
  const row = await findSessionRow(db, userId, id);
  if (!row) throw notFound("Session");
  return toSession(row);
}

export async function createSession(db: DB, userId: string, input: { cameraId?: string | null | undefined; cameraName?: string | null | undefined; title?: string | null | undefined }): Promise<CountSession> {
  const camera = await referencedCamera(db, userId, input.cameraId);
  const row = await db
    .insertInto("count_sessions")
    .values({ user_id: userId, camera_id: camera?.id ?? null, camera_name: input.cameraName || camera?.name || null, title: input.title || defaultSessionTitle() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toSession(row);
}

export async function finishSession(db: DB, userId: string, id: string): Promise<CountSession> {
  // Only the request that actually finishes the session gets a row back, so two racing finishes emit one event.
  const finished = await db
    .updateTable("count_sessions")
    .set({ finished_at: sql<Date>`now()` })
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .where("finished_at", "is", null)
    .returningAll()
    .executeTakeFirst();
  const row = finished ?? (await findSessionRow(db, userId, id));
  if (!row) throw notFound("Session");
  const session = toSession(row);
  if (finished) await onSessionFinished(db, userId, session);
  return session;
}

export async function deleteSession(db: DB, userId: string, id: string): Promise<void> {
  const snapshots = await db.selectFrom("count_snapshots").select(["image_key", "thumbnail_key"]).where("user_id", "=", userId).where("session_id", "=", id).execute();
  const deleted = await db.deleteFrom("count_sessions").where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();
  if (!deleted) throw notFound("Session");
  await Promise.all(snapshots.flatMap((s) => [blobStore().delete(s.image_key), blobStore().delete(s.thumbnail_key)]));
}

export async function listSnapshots(db: DB, userId: string, sessionId: string): Promise<CountSnapshot[]> {
  if (!(await findSessionRow(db, userId, sessionId))) throw notFound("Session");
  const rows = await db.selectFrom("count_snapshots").selectAll().where("user_id", "=", userId).where("session_id", "=", sessionId).orderBy("captured_at").orderBy("id").execute();
  return rows.map(toSnapshot);
}

/**
 * Recomputes a session's stats from its snapshots: a snapshot's count is the corrected count when a
 * person fixed it, else the model's; min/max use the low/high ends of ranges.
 */
async function recomputeStats(trx: Transaction<Database>, sessionId: string): Promise<void> {
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
  `.execute(trx);
}

export interface NewSnapshot {
  image: Buffer;
  aiCount: number;
  aiCountMin?: number | null;
  aiCountMax?: number | null;
}

/** Stores a counted frame in an active session (the vision service calls this after counting). */
export async function addSnapshot(db: DB, userId: string, sessionId: string, input: NewSnapshot): Promise<{ snapshot: CountSnapshot; session: CountSession }> {
  const session = await findSessionRow(db, userId, sessionId);
  if (!session) throw notFound("Session");
  if (session.finished_at) throw new ProblemError(409, "That counting session is finished; start a new one");
  const image = await intakeImage(input.image);
  const id = randomUUID();
  const imageKey = blobKeys.snapshot(userId, id, image.ext);
  const thumbnailKey = blobKeys.snapshotThumbnail(userId, id);
  await putAll([
    [imageKey, image.original],
    [thumbnailKey, image.thumbnail],
  ]);
  let saved;
  try {
    saved = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("count_snapshots")
        .values({
          id,
          session_id: sessionId,
          user_id: userId,
          image_key: imageKey,
          thumbnail_key: thumbnailKey,
          etag: image.etag,
          mime_type: image.mimeType,
          ai_count: input.aiCount,
          ai_count_min: input.aiCountMin ?? null,
          ai_count_max: input.aiCountMax ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recomputeStats(trx, sessionId);
      const updated = await findSessionRow(trx, userId, sessionId);
      return { snapshot: toSnapshot(row), session: toSession(updated!) };
    });
  } catch (error) {
    // As for photos: the blobs go only once the row is known to be absent (else the orphan sweeper decides).
    const exists = await db.selectFrom("count_snapshots").select("id").where("id", "=", id).executeTakeFirst().then(Boolean, () => true);
    if (!exists) await Promise.all([blobStore().delete(imageKey), blobStore().delete(thumbnailKey)]).catch(() => {});
    throw error;
  }
  await onPeopleCounted(db, userId, { count: input.aiCount, session: saved.session });
  return saved;
}

/** A person's correction: a single number, or a range with its rounded midpoint as the count. */
export async function correctSnapshot(db: DB, userId: string, snapshotId: string, input: SnapshotCorrection): Promise<CountSnapshot> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .updateTable("count_snapshots")
      .set({
        corrected_count: input.correctedCount,
        corrected_count_min: input.correctedCountMin ?? null,
        corrected_count_max: input.correctedCountMax ?? null,
      })
      .where("user_id", "=", userId)
      .where("id", "=", snapshotId);
    if (input.sessionId) query = query.where("session_id", "=", input.sessionId);
    const row = await query.returningAll().executeTakeFirst();
    if (!row) throw notFound("Snapshot");
    await recomputeStats(trx, row.session_id);
    return toSnapshot(row);
  });
}

export async function getSnapshotImage(db: DB, userId: string, id: string, variant: "original" | "thumbnail") {
  const row = await db.selectFrom("count_snapshots").selectAll().where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Snapshot");
  const bytes = await blobStore().get(variant === "original" ? row.image_key : row.thumbnail_key);
  if (!bytes) throw notFound("Snapshot image");
  return variant === "original" ? { bytes, etag: row.etag, contentType: row.mime_type } : { bytes, etag: `${row.etag}-t`, contentType: "image/jpeg" };
}
