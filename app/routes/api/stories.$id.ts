// /api/stories/:id — GET, PATCH {title}, DELETE (the story's photos stay in the library).
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, idParam, json, readJson } from "../../../server/http/api";
import { deleteStory, getStory, renameStory } from "../../../server/stories/service";
import { storyUpdateSchema } from "../../schemas/stories";
import type { Route } from "./+types/stories.$id";

export const loader = apiRoute<Route.LoaderArgs | Route.ActionArgs>({
  GET: async ({ request, params }) => json(await getStory(db(), (await requireUser(request)).id, idParam(params.id, "Story"))),
  PATCH: async ({ request, params }) => {
    const user = await requireUser(request);
    const id = idParam(params.id, "Story");
    const { title } = await readJson(request, storyUpdateSchema);
    return json(await renameStory(db(), user.id, id, title));
  },
  DELETE: async ({ request, params }) => {
    await deleteStory(db(), (await requireUser(request)).id, idParam(params.id, "Story"));
    return new Response(null, { status: 204 });
  },
});
export const action = loader;
