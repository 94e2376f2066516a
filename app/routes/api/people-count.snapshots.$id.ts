// PATCH /api/people-count/snapshots/:id {correctedCount, correctedCountMin, correctedCountMax, sessionId} → the snapshot.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { correctSnapshot } from "../../../server/counting/service";
import { apiRoute, idParam, json, readJson } from "../../../server/http/api";
import { snapshotCorrectionSchema } from "../../schemas/people-count";
import type { Route } from "./+types/people-count.snapshots.$id";

export const loader = apiRoute<Route.ActionArgs>({
  PATCH: async ({ request, params }) => {
    const user = await requireUser(request);
    const id = idParam(params.id, "Snapshot");
    return json(await correctSnapshot(db(), user.id, id, await readJson(request, snapshotCorrectionSchema)));
  },
});
export const action = loader;
