// The stories operations' handlers (app/schemas/operations/stories.ts), one per catalogue entry.
import { db } from "#db/index";
import { createStory, listStories, deleteStory, getStory, renameStory, finishStory, addCaption, listCaptions } from "#server/stories/service";
import { listStoryPhotos } from "#server/photos/service";
import { handle } from "#server/http/operation";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

export const stories = {
  // GET /api/stories → newest first; POST {cameraId, cameraName, title} → 201 (title defaults to 'Story - ' + date-time).
  list: handle(api.stories.list, async ({ user }) => listStories(db(), user.id)),
  create: handle(api.stories.create, async ({ user, body }) => createStory(db(), user.id, body)),
  // /api/stories/:id — GET, PATCH {title}, DELETE (the story's photos stay in the library).
  get: handle(api.stories.get, { resource: "Story" }, async ({ user, params }) => getStory(db(), user.id, params.id)),
  rename: handle(api.stories.rename, { resource: "Story" }, async ({ user, params, body }) => renameStory(db(), user.id, params.id, body.title)),
  remove: handle(api.stories.remove, { resource: "Story" }, async ({ user, params }) => {
    await deleteStory(db(), user.id, params.id);
  }),
  // POST /api/stories/:id/finish → the finished story.
  finish: handle(api.stories.finish, { resource: "Story" }, async ({ user, params }) => finishStory(db(), user.id, params.id)),
  // GET /api/stories/:id/captions → in order; POST {caption, photoId} → 201.
  captions: handle(api.stories.captions, { resource: "Story" }, async ({ user, params }) => listCaptions(db(), user.id, params.id)),
  addCaption: handle(api.stories.addCaption, { resource: "Story" }, async ({ user, params, body }) => addCaption(db(), user.id, params.id, body)),
  // GET /api/stories/:id/photos → the story's photos, oldest first.
  photos: handle(api.stories.photos, { resource: "Story" }, async ({ user, params }) => listStoryPhotos(db(), user.id, params.id)),
} satisfies ResourceHandlers<typeof api.stories>;
