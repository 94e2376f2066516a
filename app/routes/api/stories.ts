// GET /api/stories → newest first; POST {cameraId, cameraName, title} → 201 (title defaults to 'Story - ' + date-time).
import { db } from "#db/index";
import { createStory, listStories } from "#server/stories/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.stories.list, async ({ user }) => listStories(db(), user.id)),
  POST: handle(api.stories.create, async ({ user, body }) => createStory(db(), user.id, body)),
});
export const action = loader;
