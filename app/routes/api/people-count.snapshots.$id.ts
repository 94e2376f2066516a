// PATCH /api/people-count/snapshots/:id {correctedCount, correctedCountMin, correctedCountMax, sessionId} → the snapshot.
import { db } from "#db/index";
import { correctSnapshot } from "#server/counting/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  PATCH: handle(api.peopleCount.correctSnapshot, { resource: "Snapshot" }, async ({ user, params, body }) => correctSnapshot(db(), user.id, params.id, body)),
});
export const action = loader;
