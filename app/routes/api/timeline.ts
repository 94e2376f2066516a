// The timeline operations' handlers (app/schemas/operations/timeline.ts), one per catalogue entry.
import { db } from "#db/index";
import type { ResourceHandlers } from "#server/http/api";
import { handle } from "#server/http/operation";
import { getSettings, listEvents, readDay, saveSettings } from "#server/timeline/service";
import { api } from "../../schemas/operations/index";

export const timeline = {
  list: handle(api.timeline.list, async ({ user, query }) => listEvents(db(), user.id, query)),
  day: handle(api.timeline.day, async ({ user, query }) => readDay(db(), user.id, query.tz ?? "UTC", query.date)),
  settings: handle(api.timeline.settings, async ({ user }) => getSettings(db(), user.id)),
  saveSettings: handle(api.timeline.saveSettings, async ({ user, body }) => saveSettings(db(), user.id, body)),
} satisfies ResourceHandlers<typeof api.timeline>;
