// POST /api/stories/:id/finish → the finished story.
import { db } from "#db/index";
import { finishStory } from "#server/stories/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.stories.finish, { resource: "Story" }, async ({ user, params }) => finishStory(db(), user.id, params.id)),
});
export const action = loader;
