// POST /api/cameras/:id/vision-events — the studio's local-vision events: counted, sent to the webhook, alerted on.
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";
import { recordEvents } from "#server/local-vision/service";

export const loader = apiRoute({
  POST: handle(api.localVision.postEvents, { resource: "Camera", bodyLimit: 64 * 1024 }, async ({ user, params, body }) =>
    recordEvents(db(), user.id, params.id, body.events, body.batchId),
  ),
});
export const action = loader;
