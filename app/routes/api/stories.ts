// GET /api/stories → newest first; POST {cameraId, cameraName, title} → 201 (title defaults to 'Story - ' + date-time).
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { createStory, listStories } from "../../../server/stories/service";
import { storyCreateSchema } from "../../schemas/stories";

export const loader = apiRoute({
  GET: async ({ request }) => json(await listStories(db(), (await requireUser(request)).id)),
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await createStory(db(), user.id, await readJson(request, storyCreateSchema)), { status: 201 });
  },
});
export const action = loader;
