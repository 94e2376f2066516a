// The monitors operations' handlers (app/schemas/operations/monitors.ts), one per catalogue entry.
import { db } from "#db/index";
import { createMonitor, listMonitors, deleteMonitor, getMonitor, updateMonitor, pauseMonitor, resumeMonitor } from "#server/monitors/service";
import { handle } from "#server/http/operation";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

const resource = { resource: "Monitor" };

export const monitors = {
  // GET /api/monitors → the user's monitors; POST starts one on an IP camera.
  list: handle(api.monitors.list, async ({ user }) => listMonitors(db(), user.id)),
  create: handle(api.monitors.create, async ({ user, body }) => createMonitor(db(), user.id, body)),
  // /api/monitors/:id — GET one, PATCH {name, settings}, DELETE.
  get: handle(api.monitors.get, resource, async ({ user, params }) => getMonitor(db(), user.id, params.id)),
  update: handle(api.monitors.update, resource, async ({ user, params, body }) => updateMonitor(db(), user.id, params.id, body)),
  remove: handle(api.monitors.remove, resource, async ({ user, params }) => {
    await deleteMonitor(db(), user.id, params.id);
  }),
  // POST /api/monitors/:id/pause → the paused monitor.
  pause: handle(api.monitors.pause, { resource: "Monitor" }, async ({ user, params }) => pauseMonitor(db(), user.id, params.id)),
  // POST /api/monitors/:id/resume → the monitor, running again from now.
  resume: handle(api.monitors.resume, { resource: "Monitor" }, async ({ user, params }) => resumeMonitor(db(), user.id, params.id)),
} satisfies ResourceHandlers<typeof api.monitors>;
