// /api/monitors/:id — GET one, PATCH {name, settings}, DELETE.
import { db } from "#db/index";
import { deleteMonitor, getMonitor, updateMonitor } from "#server/monitors/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

const resource = { resource: "Monitor" };

export const loader = apiRoute({
  GET: handle(api.monitors.get, resource, async ({ user, params }) => getMonitor(db(), user.id, params.id)),
  PATCH: handle(api.monitors.update, resource, async ({ user, params, body }) => updateMonitor(db(), user.id, params.id, body)),
  DELETE: handle(api.monitors.remove, resource, async ({ user, params }) => {
    await deleteMonitor(db(), user.id, params.id);
  }),
});
export const action = loader;
