// GET /api/monitors → the user's monitors; POST starts one on an IP camera.
import { db } from "#db/index";
import { createMonitor, listMonitors } from "#server/monitors/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.monitors.list, async ({ user }) => listMonitors(db(), user.id)),
  POST: handle(api.monitors.create, async ({ user, body }) => createMonitor(db(), user.id, body)),
});
export const action = loader;
