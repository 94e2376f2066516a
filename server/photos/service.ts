// Photos: intake and storage of the image, metadata rows, owner-only reads, cursor pages.
import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import type { Photo, PhotoCreateInput, PhotoEditKind, PhotoListQuery } from "#app/schemas/photos";
import type { DB } from "#db/index";
import type { PhotosTable } from "#db/schema";
import { referencedCamera } from "../cameras/service";
import { notFound, ProblemError } from "../errors";
import type { Frame } from "../images/frame";
import { intakeImage } from "../images/intake";
import { blobKeys, blobReader, discardBlobs, putThenRecord, type BlobStore } from "../storage/blob-store";
import { emit } from "../events";
import * as storyQueries from "../stories/queries";
import * as q from "./queries";

type PhotoRow = Pick<
  Selectable<PhotosTable>,
  | "id"
  | "camera_id"
  | "camera_name"
  | "story_id"
  | "capture_mode"
  | "auto_capture"
  | "detection_query"
  | "detection_boxes"
  | "description"
  | "video_width"
  | "video_height"
  | "frame_rate"
  | "width"
  | "height"
  | "bytes"
  | "created_at"
  | "source_photo_id"
  | "edit_kind"
>;

export function toPhoto(row: PhotoRow): Photo {
  return {
    id: row.id,
    cameraId: row.camera_id,
    cameraName: row.camera_name,
    storyId: row.story_id,
    createdAt: row.created_at.toISOString(),
    captureMode: row.capture_mode,
    autoCapture: row.auto_capture,
    detectionQuery: row.detection_query,
    detectionBoxes: row.detection_boxes,
    description: row.description,
    videoWidth: row.video_width,
    videoHeight: row.video_height,
    frameRate: row.frame_rate,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    imageUrl: `/api/photos/${row.id}/image`,
    thumbnailUrl: `/api/photos/${row.id}/thumbnail`,
    sourcePhotoId: row.source_photo_id,
    editKind: row.edit_kind,
  };
}

/** What a photo is saved from: the studio's capture fields, and the picture as bytes (`edit`: made from another photo). */
export type PhotoInput = Omit<PhotoCreateInput, "imageData" | "visionEvent"> & { visionEvent?: boolean; frame: Frame; edit?: { sourcePhotoId: string; kind: PhotoEditKind } };

/**
 * Saves a photo: blobs first, then the row with its photo.saved event (putThenRecord). `visionEvent`: the photo of a
 * local-vision event, which that event tells about (the event's data says so, for its listeners).
 */
export async function createPhoto(db: DB, blobs: BlobStore, userId: string, input: PhotoInput): Promise<Photo> {
  const camera = await referencedCamera(db, userId, input.cameraId);
  if (input.storyId) {
    const story = await storyQueries.findStoryState(db, userId, input.storyId);
    if (!story) throw new ProblemError(404, "Story not found", { errors: { storyId: ["no such story"] } });
    if (story.finished_at) throw new ProblemError(409, "That story is finished; start a new one to add photos", { errors: { storyId: ["finished"] } });
  }

  const image = await intakeImage(input.frame.bytes);
  const id = randomUUID();
  const imageKey = blobKeys.photo(userId, id, image.ext);
  const thumbnailKey = blobKeys.photoThumbnail(userId, id);
  const row = await putThenRecord(
    blobs,
    [
      [imageKey, image.original],
      [thumbnailKey, image.thumbnail],
    ],
    () =>
      db.transaction().execute(async (trx) => {
        const inserted = await q.insertPhoto(trx, {
          id,
          user_id: userId,
          camera_id: camera?.id ?? null,
          camera_name: camera?.name ?? null,
          story_id: input.storyId ?? null,
          capture_mode: input.captureMode,
          auto_capture: input.autoCapture,
          detection_query: input.detectionQuery || null,
          detection_boxes: input.detectionBoxes ?? null,
          description: input.description || null,
          video_width: input.videoWidth ?? null,
          video_height: input.videoHeight ?? null,
          frame_rate: input.frameRate ?? null,
          width: image.width,
          height: image.height,
          bytes: image.bytes,
          mime_type: image.mimeType,
          image_key: imageKey,
          thumbnail_key: thumbnailKey,
          etag: image.etag,
          source_photo_id: input.edit?.sourcePhotoId ?? null,
          edit_kind: input.edit?.kind ?? null,
        });
        if (input.storyId) await storyQueries.featurePhotoIfNone(trx, input.storyId, id);
        await emit(trx, { type: "photo.saved", userId, photo: toPhoto(inserted), ofVisionEvent: input.visionEvent ?? false });
        return inserted;
      }),
    () => q.photoRowExists(db, id),
  );
  return toPhoto(row);
}

function encodeCursor(row: { created_at: Date; id: string }): string {
  return Buffer.from(`${row.created_at.toISOString()}|${row.id}`).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso ?? "");
  if (Number.isNaN(createdAt.getTime()) || !id || !/^[0-9a-f-]{36}$/.test(id)) {
    throw new ProblemError(400, "cursor is not valid", { errors: { cursor: ["not a cursor this API returned"] } });
  }
  return { createdAt, id };
}

/** Newest first; `nextCursor` is null on the last page. */
export async function listPhotos(db: DB, userId: string, query: PhotoListQuery): Promise<{ items: Photo[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await q.listPhotos(db, userId, query, query.limit + 1, after);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { items: page.map(toPhoto), nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
}

export async function getPhoto(db: DB, userId: string, id: string): Promise<Photo> {
  const row = await q.findPhoto(db, userId, id);
  if (!row) throw notFound("Photo");
  return toPhoto(row);
}

/** The photo with its original image's bytes, as the studio's gallery reads it (inline, made a data URL at the HTTP edge). */
export async function getPhotoWithImage(db: DB, blobs: BlobStore, userId: string, id: string): Promise<{ photo: Photo; image: { bytes: Buffer; type: string } }> {
  const row = await q.findPhoto(db, userId, id);
  if (!row) throw notFound("Photo");
  const bytes = await blobs.get(row.image_key);
  if (!bytes) throw notFound("Photo image");
  return { photo: toPhoto(row), image: { bytes, type: row.mime_type } };
}

export async function getPhotoImage(db: DB, blobs: BlobStore, userId: string, id: string, variant: "original" | "thumbnail") {
  const row = await q.findPhoto(db, userId, id);
  if (!row) throw notFound("Photo");
  const bytes = blobReader(blobs, variant === "original" ? row.image_key : row.thumbnail_key, "Photo image");
  return variant === "original" ? { bytes, etag: row.etag, contentType: row.mime_type } : { bytes, etag: `${row.etag}-t`, contentType: "image/jpeg" };
}

/** Deletes the row (and repoints a story's featured photo), then the blobs once the row is gone. */
export async function deletePhoto(db: DB, blobs: BlobStore, userId: string, id: string): Promise<void> {
  const row = await db.transaction().execute(async (trx) => {
    const deleted = await q.deletePhoto(trx, userId, id);
    // The foreign key already cleared featured_photo_id if it was this photo; the story gets its earliest remaining one.
    if (deleted?.story_id) await storyQueries.refeatureEarliestPhoto(trx, deleted.story_id);
    return deleted;
  });
  if (!row) throw notFound("Photo");
  await discardBlobs(blobs, [row.image_key, row.thumbnail_key]);
}

/** A story's photos, oldest first (404 when the story is not the user's). */
export async function listStoryPhotos(db: DB, userId: string, storyId: string): Promise<Photo[]> {
  if (!(await storyQueries.findStoryState(db, userId, storyId))) throw notFound("Story");
  return (await q.listStoryPhotos(db, userId, storyId)).map(toPhoto);
}
