// The featureRequests operations' handlers (app/schemas/operations/feature-requests.ts), one per catalogue entry.
import { db } from "#db/index";
import { createFeatureRequest } from "#server/feature-requests/service";
import { handle } from "#server/http/operation";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

export const featureRequests = {
  // POST /api/feature-requests {title, description} → 201 with the stored request.
  create: handle(api.featureRequests.create, async ({ user, body }) => createFeatureRequest(db(), user.id, body)),
} satisfies ResourceHandlers<typeof api.featureRequests>;
