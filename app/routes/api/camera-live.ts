// GET /api/cameras/:id/live is the live view's WebSocket (server/http/camera-live-socket.ts answers the upgrade
// before any route runs). A plain GET reaching this route was not an upgrade: 426, after the sign-in and owner checks.
import { db } from "#db/index";
import { loadCameraSource } from "#server/cameras/source";
import { ProblemError } from "#server/errors";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

const live = handle(api.cameras.live, { resource: "Camera" }, async ({ user, params }) => {
  await loadCameraSource(db(), user.id, params.id); // 404 for a camera that is not the caller's IP camera, as the socket says 4404
  throw new ProblemError(426, "This address is a WebSocket: open it with new WebSocket(...)", { headers: { Upgrade: "websocket" } });
});

export const loader = apiRoute({ GET: live });
export const action = loader;
