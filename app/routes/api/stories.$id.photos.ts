// GET /api/stories/:id/photos → the story's photos, oldest first.
import { db } from "#db/index";
import { listStoryPhotos } from "#server/photos/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.stories.photos, { resource: "Story" }, async ({ user, params }) => listStoryPhotos(db(), user.id, params.id)),
});
export const action = loader;
