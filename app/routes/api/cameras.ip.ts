// POST /api/cameras/ip {name, streamUrl} | {name, host, username?, password?} → 201 with the IP camera (streams, codec and PTZ found by the server).
import { db } from "#db/index";
import { createIpCamera } from "#server/cameras/ip-service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.cameras.createIp, async ({ user, body }) => createIpCamera(db(), user.id, body)),
});
export const action = loader;
