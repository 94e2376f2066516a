// POST /api/stories/:id/finish → the finished story.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, idParam, json } from "../../../server/http/api";
import { finishStory } from "../../../server/stories/service";
import type { Route } from "./+types/stories.$id.finish";

export const loader = apiRoute<Route.ActionArgs>({
  POST: async ({ request, params }) => json(await finishStory(db(), (await requireUser(request)).id, idParam(params.id, "Story"))),
});
export const action = loader;
