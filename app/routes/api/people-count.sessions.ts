// GET /api/people-count/sessions → newest first; POST {cameraId, cameraName, title} → 201.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { createSession, listSessions } from "../../../server/counting/service";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { sessionCreateSchema } from "../../schemas/people-count";

export const loader = apiRoute({
  GET: async ({ request }) => json(await listSessions(db(), (await requireUser(request)).id)),
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await createSession(db(), user.id, await readJson(request, sessionCreateSchema)), { status: 201 });
  },
});
export const action = loader;
