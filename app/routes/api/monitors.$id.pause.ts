// POST /api/monitors/:id/pause → the paused monitor.
import { db } from "#db/index";
import { pauseMonitor } from "#server/monitors/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.monitors.pause, { resource: "Monitor" }, async ({ user, params }) => pauseMonitor(db(), user.id, params.id)),
});
export const action = loader;
