// The browser's calls on the events timeline (typed by the catalogue; see ./call.ts).
import { api } from "../../schemas/operations";
import { call, type OperationBody, type OperationQuery } from "./call";

const { timeline } = api;

export type TimelineListQuery = OperationQuery<typeof timeline.list>;

export const timelineApi = {
  list: (query: TimelineListQuery, signal?: AbortSignal) => call(timeline.list, { query, signal }),
  day: (date: string, tz: string, signal?: AbortSignal) => call(timeline.day, { query: { date, tz }, signal }),
  settings: () => call(timeline.settings),
  saveSettings: (body: OperationBody<typeof timeline.saveSettings>) => call(timeline.saveSettings, { body }),
};
