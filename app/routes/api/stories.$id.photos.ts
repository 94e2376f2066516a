// GET /api/stories/:id/photos → the story's photos, oldest first.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, idParam, json } from "../../../server/http/api";
import { storyPhotos } from "../../../server/stories/service";
import type { Route } from "./+types/stories.$id.photos";

export const loader = apiRoute<Route.LoaderArgs>({
  GET: async ({ request, params }) => json(await storyPhotos(db(), (await requireUser(request)).id, idParam(params.id, "Story"))),
});
export const action = loader;
