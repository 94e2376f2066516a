// The timeline operations of the catalogue (see ./define.ts): the events, a day's marks per camera, the retention setting.
import { timelineDayQuerySchema, timelineDaySchema, timelinePageSchema, timelineQuerySchema, timelineSettingsSchema } from "../timeline";
import { defineOperation } from "./define";

const tag = "Timeline";

export const timeline = {
  list: defineOperation({
    method: "get",
    path: "/api/timeline",
    summary: "What happened on the user's cameras, newest first: filters, full-text search (typos tolerated), a cursor for the next page",
    tag,
    access: "user",
    query: timelineQuerySchema,
    success: { status: 200, schema: timelinePageSchema },
    errors: [400],
  }),
  day: defineOperation({
    method: "get",
    path: "/api/timeline/day",
    summary: "A day's events per camera as marks (one per type and 5 minutes), for the day strip",
    tag,
    access: "user",
    query: timelineDayQuerySchema,
    success: { status: 200, schema: timelineDaySchema },
    errors: [400],
  }),
  settings: defineOperation({
    method: "get",
    path: "/api/timeline/settings",
    summary: "How long events are kept",
    tag,
    access: "user",
    success: { status: 200, schema: timelineSettingsSchema },
  }),
  saveSettings: defineOperation({
    method: "put",
    path: "/api/timeline/settings",
    summary: "Change how long events are kept (older ones are deleted within the hour)",
    tag,
    access: "user",
    body: timelineSettingsSchema,
    success: { status: 200, schema: timelineSettingsSchema },
    errors: [400],
  }),
};
