// PUT /api/cameras/:id/ip {streamUrl} | {host, username?, password?} → the IP camera probed at its new address (its stream restarts).
import { db } from "#db/index";
import { updateIpCamera } from "#server/cameras/ip-service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  PUT: handle(api.cameras.updateIp, { resource: "Camera" }, async ({ user, params, body, services }) => updateIpCamera(db(), services.streams, user.id, params.id, body)),
});
export const action = loader;
