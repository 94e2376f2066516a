// POST /api/feature-requests {title, description} → 201 with the stored request.
import { db } from "#db/index";
import { createFeatureRequest } from "#server/feature-requests/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.featureRequests.create, async ({ user, body }) => createFeatureRequest(db(), user.id, body)),
});
export const action = loader;
