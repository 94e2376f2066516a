// /api/stories/:id — GET, PATCH {title}, DELETE (the story's photos stay in the library).
import { db } from "#db/index";
import { deleteStory, getStory, renameStory } from "#server/stories/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.stories.get, { resource: "Story" }, async ({ user, params }) => getStory(db(), user.id, params.id)),
  PATCH: handle(api.stories.rename, { resource: "Story" }, async ({ user, params, body }) => renameStory(db(), user.id, params.id, body.title)),
  DELETE: handle(api.stories.remove, { resource: "Story" }, async ({ user, params }) => {
    await deleteStory(db(), user.id, params.id);
  }),
});
export const action = loader;
