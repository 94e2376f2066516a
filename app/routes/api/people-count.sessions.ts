// GET /api/people-count/sessions → newest first; POST {cameraId, cameraName, title} → 201.
import { db } from "#db/index";
import { createSession, listSessions } from "#server/counting/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.peopleCount.sessions, async ({ user }) => listSessions(db(), user.id)),
  POST: handle(api.peopleCount.createSession, async ({ user, body }) => createSession(db(), user.id, body)),
});
export const action = loader;
