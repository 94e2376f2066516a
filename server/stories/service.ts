// Stories: a story-mode session with its photos and captions. photoCount is counted, isActive derived.
import type { Selectable } from "kysely";
import { defaultStoryTitle, type Story, type StoryCaption, type StoryCreateInput } from "#app/schemas/stories";
import type { DB } from "#db/index";
import type { StoriesTable } from "#db/schema";
import { referencedCamera } from "../cameras/service";
import { notFound, ProblemError } from "../errors";
import { emit } from "../events";
import * as q from "./queries";

type StoryRow = Selectable<StoriesTable> & { photo_count: number };

function toStory(row: StoryRow): Story {
  return {
    id: row.id,
    cameraId: row.camera_id,
    cameraName: row.camera_name,
    title: row.title,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    featuredPhotoId: row.featured_photo_id,
    photoCount: Number(row.photo_count),
    isActive: row.finished_at === null,
  };
}

async function findStory(db: DB, userId: string, id: string): Promise<StoryRow> {
  const row = await q.findStory(db, userId, id);
  if (!row) throw notFound("Story");
  return row as StoryRow;
}

export async function listStories(db: DB, userId: string): Promise<Story[]> {
  const rows = await q.listStories(db, userId);
  return rows.map((row) => toStory(row as StoryRow));
}

export async function getStory(db: DB, userId: string, id: string): Promise<Story> {
  return toStory(await findStory(db, userId, id));
}

export async function createStory(db: DB, userId: string, input: StoryCreateInput): Promise<Story> {
  const camera = await referencedCamera(db, userId, input.cameraId);
  const row = await q.insertStory(db, {
    user_id: userId,
    camera_id: camera?.id ?? null,
    camera_name: input.cameraName || camera?.name || null,
    title: input.title || defaultStoryTitle(),
  });
  return toStory({ ...row, photo_count: 0 });
}

export async function renameStory(db: DB, userId: string, id: string, title: string): Promise<Story> {
  const updated = await q.renameStory(db, userId, id, title);
  if (!updated) throw notFound("Story");
  return getStory(db, userId, id);
}

/** Finishing twice keeps the first finish time. */
export async function finishStory(db: DB, userId: string, id: string): Promise<Story> {
  return db.transaction().execute(async (trx) => {
    // Only the request that actually finishes the story gets a row back, so two racing finishes emit one event.
    const finished = await q.finishStory(trx, userId, id);
    const story = await getStory(trx, userId, id); // 404 when it isn't this user's
    if (finished) await emit(trx, { type: "story.finished", userId, story });
    return story;
  });
}

export async function deleteStory(db: DB, userId: string, id: string): Promise<void> {
  // Photos stay (their story_id is cleared by the foreign key); captions go with the story.
  const deleted = await q.deleteStory(db, userId, id);
  if (!deleted) throw notFound("Story");
}

export async function listCaptions(db: DB, userId: string, storyId: string): Promise<StoryCaption[]> {
  await findStory(db, userId, storyId);
  const rows = await q.listCaptions(db, storyId);
  return rows.map((row) => ({ id: row.id, caption: row.caption, photoId: row.photo_id, capturedAt: row.captured_at.toISOString() }));
}

export async function addCaption(db: DB, userId: string, storyId: string, input: { caption: string; photoId?: string | null | undefined }): Promise<StoryCaption> {
  const story = await findStory(db, userId, storyId);
  if (story.finished_at) throw new ProblemError(409, "That story is finished; start a new one to add captions");
  if (input.photoId) {
    if (!(await q.findOwnPhotoId(db, userId, input.photoId))) throw new ProblemError(404, "Photo not found", { errors: { photoId: ["no such photo"] } });
  }
  const row = await q.insertCaption(db, { story_id: storyId, caption: input.caption, photo_id: input.photoId ?? null });
  return { id: row.id, caption: row.caption, photoId: row.photo_id, capturedAt: row.captured_at.toISOString() };
}
