// GET /api/stories/:id/captions → in order; POST {caption, photoId} → 201.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, idParam, json, readJson } from "../../../server/http/api";
import { addCaption, listCaptions } from "../../../server/stories/service";
import { captionCreateSchema } from "../../schemas/stories";
import type { Route } from "./+types/stories.$id.captions";

export const loader = apiRoute<Route.LoaderArgs | Route.ActionArgs>({
  GET: async ({ request, params }) => json(await listCaptions(db(), (await requireUser(request)).id, idParam(params.id, "Story"))),
  POST: async ({ request, params }) => {
    const user = await requireUser(request);
    const id = idParam(params.id, "Story");
    return json(await addCaption(db(), user.id, id, await readJson(request, captionCreateSchema)), { status: 201 });
  },
});
export const action = loader;
