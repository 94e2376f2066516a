// GET /api/stories/:id/captions → in order; POST {caption, photoId} → 201.
import { db } from "#db/index";
import { addCaption, listCaptions } from "#server/stories/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.stories.captions, { resource: "Story" }, async ({ user, params }) => listCaptions(db(), user.id, params.id)),
  POST: handle(api.stories.addCaption, { resource: "Story" }, async ({ user, params, body }) => addCaption(db(), user.id, params.id, body)),
});
export const action = loader;
