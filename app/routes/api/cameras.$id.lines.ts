// GET /api/cameras/:id/lines → the camera's lines; POST adds one.
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";
import { createLine, listLines } from "#server/local-vision/service";

const resource = { resource: "Camera" };

export const loader = apiRoute({
  GET: handle(api.localVision.listLines, resource, async ({ user, params }) => listLines(db(), user.id, params.id)),
  POST: handle(api.localVision.createLine, resource, async ({ user, params, body }) => createLine(db(), user.id, params.id, body)),
});
export const action = loader;
