// /api/people-count/sessions/:id/snapshots — GET the session's snapshots in time order; POST {imageData, count}
// → 201: a frame the studio counted on the device, stored in the active local session.
import { MAX_FRAME_BYTES } from "#app/schemas/vision";
import { db } from "#db/index";
import { addLocalSnapshot, listSnapshots } from "#server/counting/service";
import { FRAME_BODY_LIMIT } from "#server/vision/frames";
import { apiRoute } from "#server/http/api";
import { imageFrame } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.peopleCount.snapshots, { resource: "Session" }, async ({ user, params }) => listSnapshots(db(), user.id, params.id)),
  POST: handle(api.peopleCount.addSnapshot, { resource: "Session", bodyLimit: FRAME_BODY_LIMIT }, async ({ user, params, body }) =>
    addLocalSnapshot(db(), user.id, params.id, { count: body.count, frame: imageFrame(body.imageData, MAX_FRAME_BYTES) }),
  ),
});
export const action = loader;
