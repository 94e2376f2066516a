// POST /api/monitors/:id/resume → the monitor, running again from now.
import { db } from "#db/index";
import { resumeMonitor } from "#server/monitors/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.monitors.resume, { resource: "Monitor" }, async ({ user, params }) => resumeMonitor(db(), user.id, params.id)),
});
export const action = loader;
