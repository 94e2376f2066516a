// The insights operations' handlers (app/schemas/operations/insights.ts), one per catalogue entry.
import { db } from "#db/index";
import { attendance } from "#server/insights/attendance";
import { buildReport } from "#server/insights/report";
import { readSettings } from "#server/insights/scope";
import { createSite, createWindow, deleteSite, deleteWindow, listSites, listWindows, saveSettings, updateSite, updateWindow } from "#server/insights/sites";
import type { ResourceHandlers } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const insights = {
  sites: handle(api.insights.sites, async ({ user }) => listSites(db(), user.id)),
  createSite: handle(api.insights.createSite, async ({ user, body }) => createSite(db(), user.id, body)),
  updateSite: handle(api.insights.updateSite, { resource: "Site" }, async ({ user, params, body }) => updateSite(db(), user.id, params.id, body)),
  removeSite: handle(api.insights.removeSite, { resource: "Site" }, async ({ user, params }) => {
    await deleteSite(db(), user.id, params.id);
  }),
  windows: handle(api.insights.windows, { resource: "Site" }, async ({ user, params }) => listWindows(db(), user.id, params.id)),
  createWindow: handle(api.insights.createWindow, { resource: "Site" }, async ({ user, params, body }) => createWindow(db(), user.id, params.id, body)),
  updateWindow: handle(api.insights.updateWindow, { resource: "Window" }, async ({ user, params, body }) => updateWindow(db(), user.id, params.id, body)),
  removeWindow: handle(api.insights.removeWindow, { resource: "Window" }, async ({ user, params }) => {
    await deleteWindow(db(), user.id, params.id);
  }),
  attendance: handle(api.insights.attendance, { resource: "Site" }, async ({ user, params, query }) => attendance(db(), user.id, params.id, query)),
  report: handle(api.insights.report, async ({ user, query }) => buildReport(db(), user.id, query)),
  settings: handle(api.insights.settings, async ({ user }) => readSettings(db(), user.id)),
  saveSettings: handle(api.insights.saveSettings, async ({ user, body }) => saveSettings(db(), user.id, body)),
} satisfies ResourceHandlers<typeof api.insights>;
