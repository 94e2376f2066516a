// GET /api/people-count/sessions/:id/snapshots → the session's snapshots in time order.
import { db } from "#db/index";
import { listSnapshots } from "#server/counting/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.peopleCount.snapshots, { resource: "Session" }, async ({ user, params }) => listSnapshots(db(), user.id, params.id)),
});
export const action = loader;
