// POST /api/cameras/:id/capture {captureMode, storyId, detection…} → 201 with the photo: the server takes the IP
// camera's picture from the stream it already pulls, at full resolution, and saves it (no frame goes to the browser
// and back).
import { db } from "#db/index";
import { captureFromCamera } from "#server/photos/capture";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.cameras.capture, { resource: "Camera" }, async ({ user, params, body }) => captureFromCamera(db(), user.id, params.id, body)),
});
export const action = loader;
