// POST /api/people-count/sessions/:id/finish → the finished session.
import { db } from "#db/index";
import { finishSession } from "#server/counting/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.peopleCount.finishSession, { resource: "Session" }, async ({ user, params }) => finishSession(db(), user.id, params.id)),
});
export const action = loader;
