// People-counting sessions and their snapshots. Session stats always reflect corrected counts where a
// person fixed them, and are recomputed in the same transaction as every change.
import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import { defaultSessionTitle, type CountSession, type CountSnapshot, type CountSource, type LocalSnapshot, type SnapshotCorrection } from "#app/schemas/people-count";
import type { DB } from "#db/index";
import type { CountSessionsTable, CountSnapshotsTable } from "#db/schema";
import { referencedCamera } from "../cameras/service";
import { notFound, ProblemError } from "../errors";
import { reserve, tryAgainIn } from "../accounts/throttle";
import type { Frame } from "../images/frame";
import { intakeImage } from "../images/intake";
import { emit } from "../events";
import { blobKeys, blobReader, discardBlobs, putThenRecord, type BlobStore } from "../storage/blob-store";
import * as q from "./queries";

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
    source: row.source as CountSource,
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

export async function listSessions(db: DB, userId: string): Promise<CountSession[]> {
  return (await q.listSessions(db, userId)).map(toSession);
}

export async function getSession(db: DB, userId: string, id: string): Promise<CountSession> {
  const row = await q.findSession(db, userId, id);
  if (!row) throw notFound("Session");
  return toSession(row);
}

export async function createSession(
  db: DB,
  userId: string,
  input: { cameraId?: string | null | undefined; cameraName?: string | null | undefined; title?: string | null | undefined; source?: CountSource | undefined },
): Promise<CountSession> {
  const camera = await referencedCamera(db, userId, input.cameraId);
  const row = await q.insertSession(db, {
    user_id: userId,
    camera_id: camera?.id ?? null,
    camera_name: input.cameraName || camera?.name || null,
    title: input.title || defaultSessionTitle(),
    source: input.source ?? "moondream",
  });
  return toSession(row);
}

export async function finishSession(db: DB, userId: string, id: string): Promise<CountSession> {
  return db.transaction().execute(async (trx) => {
    // Only the request that actually finishes the session gets a row back, so two racing finishes emit one event.
    const finished = await q.finishSession(trx, userId, id);
    const row = finished ?? (await q.findSession(trx, userId, id));
    if (!row) throw notFound("Session");
    const session = toSession(row);
    if (finished) await emit(trx, { type: "count_session.finished", userId, session });
    return session;
  });
}

export async function deleteSession(db: DB, blobs: BlobStore, userId: string, id: string): Promise<void> {
  const snapshots = await q.snapshotBlobKeys(db, userId, id);
  const deleted = await q.deleteSession(db, userId, id);
  if (!deleted) throw notFound("Session");
  await discardBlobs(
    blobs,
    snapshots.flatMap((s) => [s.image_key, s.thumbnail_key]),
  );
}

export async function listSnapshots(db: DB, userId: string, sessionId: string): Promise<CountSnapshot[]> {
  if (!(await q.findSession(db, userId, sessionId))) throw notFound("Session");
  const rows = await q.listSnapshots(db, userId, sessionId);
  return rows.map(toSnapshot);
}

/** Local snapshots a user may add a minute, over all their sessions: a studio samples every 2 s at most (30 a minute). */
export const LOCAL_SNAPSHOTS_PER_MINUTE = 60;

/** Why a session refuses a snapshot from the other source: one source per session. */
export function otherSourceProblem(source: CountSource): ProblemError {
  return source === "local"
    ? new ProblemError(409, "That counting session counts on the device (local); its snapshots come from the studio, not from Moondream", {
        errors: { sessionId: ["local session"] },
      })
    : new ProblemError(409, "That counting session counts with Moondream; start a local session to add on-device counts");
}

export interface NewSnapshot {
  image: Buffer;
  aiCount: number;
  aiCountMin?: number | null;
  aiCountMax?: number | null;
}

/**
 * Stores a counted frame in an active session of `source` (countPeople in ./count.ts calls this after counting with
 * Moondream; addLocalSnapshot with the studio's on-device count).
 */
export async function addSnapshot(
  db: DB,
  blobs: BlobStore,
  userId: string,
  sessionId: string,
  input: NewSnapshot,
  source: CountSource = "moondream",
): Promise<{ snapshot: CountSnapshot; session: CountSession }> {
  const session = await q.findSession(db, userId, sessionId);
  if (!session) throw notFound("Session");
  if (session.finished_at) throw new ProblemError(409, "That counting session is finished; start a new one");
  if (session.source !== source) throw otherSourceProblem(session.source as CountSource);
  const image = await intakeImage(input.image);
  const id = randomUUID();
  const imageKey = blobKeys.snapshot(userId, id, image.ext);
  const thumbnailKey = blobKeys.snapshotThumbnail(userId, id);
  return putThenRecord(
    blobs,
    [
      [imageKey, image.original],
      [thumbnailKey, image.thumbnail],
    ],
    () =>
      db.transaction().execute(async (trx) => {
        const row = await q.insertSnapshot(trx, {
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
        });
        await q.recomputeStats(trx, sessionId);
        const session = toSession((await q.findSession(trx, userId, sessionId))!);
        await emit(trx, { type: "count.recorded", userId, count: input.aiCount, session });
        return { snapshot: toSnapshot(row), session };
      }),
    () => q.snapshotRowExists(db, id),
  );
}

/**
 * A frame the studio counted on the device (no AI call) for an active local session: limited per user, then stored
 * like any snapshot (stats, people-count alert rules).
 */
export async function addLocalSnapshot(
  db: DB,
  blobs: BlobStore,
  userId: string,
  sessionId: string,
  input: Omit<LocalSnapshot, "imageData"> & { frame: Frame },
): Promise<{ snapshot: CountSnapshot; session: CountSession }> {
  const session = await q.findSession(db, userId, sessionId);
  if (!session) throw notFound("Session");
  if (session.finished_at) throw new ProblemError(409, "That counting session is finished; start a new one");
  if (session.source !== "local") throw otherSourceProblem(session.source as CountSource);
  const limit = await reserve(db, [{ key: `local-snapshots:${userId}`, max: LOCAL_SNAPSHOTS_PER_MINUTE, windowMinutes: 1 }]);
  if (!limit.allowed) {
    throw new ProblemError(429, `Too many snapshots; count at a longer interval. ${tryAgainIn(limit.retryAfterSeconds)}`, {
      headers: { "Retry-After": String(limit.retryAfterSeconds) },
    });
  }
  // The frame was held to the same 10 MB as a frame for Moondream at the HTTP edge; intake checks what the bytes are.
  return addSnapshot(db, blobs, userId, sessionId, { image: input.frame.bytes, aiCount: input.count }, "local");
}

/** A person's correction: a single number, or a range with its rounded midpoint as the count. */
export async function correctSnapshot(db: DB, userId: string, snapshotId: string, input: SnapshotCorrection): Promise<CountSnapshot> {
  return db.transaction().execute(async (trx) => {
    const row = await q.correctSnapshot(trx, userId, snapshotId, input.sessionId ?? undefined, {
      corrected_count: input.correctedCount,
      corrected_count_min: input.correctedCountMin ?? null,
      corrected_count_max: input.correctedCountMax ?? null,
    });
    if (!row) throw notFound("Snapshot");
    await q.recomputeStats(trx, row.session_id);
    return toSnapshot(row);
  });
}

export async function getSnapshotImage(db: DB, blobs: BlobStore, userId: string, id: string, variant: "original" | "thumbnail") {
  const row = await q.findSnapshot(db, userId, id);
  if (!row) throw notFound("Snapshot");
  const bytes = blobReader(blobs, variant === "original" ? row.image_key : row.thumbnail_key, "Snapshot image");
  return variant === "original" ? { bytes, etag: row.etag, contentType: row.mime_type } : { bytes, etag: `${row.etag}-t`, contentType: "image/jpeg" };
}
