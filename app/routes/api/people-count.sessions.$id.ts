// /api/people-count/sessions/:id — GET with stats, DELETE with its snapshots.
import { db } from "#db/index";
import { deleteSession, getSession } from "#server/counting/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.peopleCount.session, { resource: "Session" }, async ({ user, params }) => getSession(db(), user.id, params.id)),
  DELETE: handle(api.peopleCount.removeSession, { resource: "Session" }, async ({ user, params }) => {
    await deleteSession(db(), user.id, params.id);
  }),
});
export const action = loader;
