// SQL for stories and their captions, always scoped to the owner; the only writer of `stories` and `story_captions`
// (photos set and repoint a story's featured photo through here).
import { sql } from "kysely";
import type { DB } from "#db/index";

/** A user's stories, each with its photo count. */
export function storiesOf(db: DB, userId: string) {
  return db
    .selectFrom("stories")
    .selectAll("stories")
    .select((eb) =>
      eb
        .selectFrom("photos")
        .select(sql<number>`count(*)::int`.as("n"))
        .whereRef("photos.story_id", "=", "stories.id")
        .as("photo_count"),
    )
    .where("stories.user_id", "=", userId);
}

export const findStory = (db: DB, userId: string, id: string) => storiesOf(db, userId).where("stories.id", "=", id).executeTakeFirst();

export const listStories = (db: DB, userId: string) => storiesOf(db, userId).orderBy("stories.created_at", "desc").orderBy("stories.id", "desc").execute();

/** Whether the user's story exists and is finished (undefined when it is not theirs). */
export const findStoryState = (db: DB, userId: string, id: string) =>
  db.selectFrom("stories").select(["finished_at"]).where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();

export function insertStory(db: DB, values: { user_id: string; camera_id: string | null; camera_name: string | null; title: string }) {
  return db.insertInto("stories").values(values).returningAll().executeTakeFirstOrThrow();
}

export const renameStory = (db: DB, userId: string, id: string, title: string) =>
  db.updateTable("stories").set({ title }).where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();

/** Sets the finish time unless it is set: only the call that finishes the story gets a row back. */
export function finishStory(db: DB, userId: string, id: string) {
  return db
    .updateTable("stories")
    .set({ finished_at: sql<Date>`now()` })
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .where("finished_at", "is", null)
    .returning("id")
    .executeTakeFirst();
}

export const deleteStory = (db: DB, userId: string, id: string) => db.deleteFrom("stories").where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();

/** A story's first photo becomes its featured photo (when it has none yet). */
export async function featurePhotoIfNone(db: DB, storyId: string, photoId: string): Promise<void> {
  await db.updateTable("stories").set({ featured_photo_id: photoId }).where("id", "=", storyId).where("featured_photo_id", "is", null).execute();
}

/** After a photo of the story is deleted (the foreign key cleared the featured photo if it was that one): its earliest remaining photo. */
export async function refeatureEarliestPhoto(db: DB, storyId: string): Promise<void> {
  await db
    .updateTable("stories")
    .set((eb) => ({
      featured_photo_id: eb.selectFrom("photos").select("photos.id").where("photos.story_id", "=", storyId).orderBy("photos.created_at").orderBy("photos.id").limit(1),
    }))
    .where("id", "=", storyId)
    .where("featured_photo_id", "is", null)
    .execute();
}

const captionColumns = ["id", "caption", "photo_id", "captured_at"] as const;

export const listCaptions = (db: DB, storyId: string) =>
  db.selectFrom("story_captions").select(captionColumns).where("story_id", "=", storyId).orderBy("captured_at").orderBy("id").execute();

/** Whether the user has this photo: a caption names one of its owner's photos or none. */
export const findOwnPhotoId = (db: DB, userId: string, photoId: string) =>
  db.selectFrom("photos").select("id").where("user_id", "=", userId).where("id", "=", photoId).executeTakeFirst();

export function insertCaption(db: DB, values: { story_id: string; caption: string; photo_id: string | null }) {
  return db.insertInto("story_captions").values(values).returning(captionColumns).executeTakeFirstOrThrow();
}
