// SQL for photos, always scoped to the owner.
import type { Insertable } from "kysely";
import type { DB } from "#db/index";
import type { PhotosTable } from "#db/schema";

/** Everything a photo's JSON needs; never the bytes. */
export const photoColumns = [
  "photos.id",
  "photos.camera_id",
  "photos.camera_name",
  "photos.story_id",
  "photos.capture_mode",
  "photos.auto_capture",
  "photos.detection_query",
  "photos.detection_boxes",
  "photos.description",
  "photos.video_width",
  "photos.video_height",
  "photos.frame_rate",
  "photos.width",
  "photos.height",
  "photos.bytes",
  "photos.created_at",
  "photos.source_photo_id",
  "photos.edit_kind",
] as const;

export interface PhotoFilter {
  cameraId?: string | undefined;
  storyId?: string | undefined;
  autoCapture?: boolean | undefined;
}

export function listPhotos(db: DB, userId: string, filter: PhotoFilter, limit: number, after?: { createdAt: Date; id: string }) {
  let query = db.selectFrom("photos").select(photoColumns).where("photos.user_id", "=", userId);
  if (filter.cameraId) query = query.where("photos.camera_id", "=", filter.cameraId);
  if (filter.storyId) query = query.where("photos.story_id", "=", filter.storyId);
  if (filter.autoCapture !== undefined) query = query.where("photos.auto_capture", "=", filter.autoCapture);
  if (after) query = query.where((eb) => eb(eb.refTuple("photos.created_at", "photos.id"), "<", eb.tuple(after.createdAt, after.id)));
  return query.orderBy("photos.created_at", "desc").orderBy("photos.id", "desc").limit(limit).execute();
}

export const findPhoto = (db: DB, userId: string, id: string) =>
  db
    .selectFrom("photos")
    .select([...photoColumns, "photos.image_key", "photos.thumbnail_key", "photos.mime_type", "photos.etag"])
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .executeTakeFirst();

export const listStoryPhotos = (db: DB, userId: string, storyId: string) =>
  db.selectFrom("photos").select(photoColumns).where("user_id", "=", userId).where("story_id", "=", storyId).orderBy("created_at").orderBy("id").execute();

/** Whether a row with this id exists, whoever owns it: after a failed save, to tell a lost commit from none. */
/** Which of these ids are the user's photos. */
export const findPhotoIds = (db: DB, userId: string, ids: readonly string[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom("photos").select("id").where("user_id", "=", userId).where("id", "in", ids).execute();

export const photoRowExists = async (db: DB, id: string) => Boolean(await db.selectFrom("photos").select("id").where("id", "=", id).executeTakeFirst());

export const insertPhoto = (db: DB, values: Insertable<PhotosTable>) => db.insertInto("photos").values(values).returning(photoColumns).executeTakeFirstOrThrow();

export const deletePhoto = (db: DB, userId: string, id: string) =>
  db.deleteFrom("photos").where("user_id", "=", userId).where("id", "=", id).returning(["id", "story_id", "image_key", "thumbnail_key"]).executeTakeFirst();
