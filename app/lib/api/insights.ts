// The browser's calls on Insights: sites and their windows, attendance, the report, settings (./insights operations),
// and the report's exports, share links and scheduled e-mails (./insight-sharing operations); typed by the catalogue
// (see ./call.ts).
import { api } from "../../schemas/operations";
import { call, operationUrl, type OperationBody, type OperationQuery } from "./call";

const { insights, insightSharing } = api;

export type ReportQueryInput = OperationQuery<typeof insights.report>;
export type ExportFormat = "csv" | "xlsx" | "pdf";

export const insightsApi = {
  sites: () => call(insights.sites),
  createSite: (body: OperationBody<typeof insights.createSite>) => call(insights.createSite, { body }),
  updateSite: (id: string, body: OperationBody<typeof insights.updateSite>) => call(insights.updateSite, { params: { id }, body }),
  removeSite: (id: string) => call(insights.removeSite, { params: { id } }),
  windows: (siteId: string) => call(insights.windows, { params: { id: siteId } }),
  createWindow: (siteId: string, body: OperationBody<typeof insights.createWindow>) => call(insights.createWindow, { params: { id: siteId }, body }),
  updateWindow: (id: string, body: OperationBody<typeof insights.updateWindow>) => call(insights.updateWindow, { params: { id }, body }),
  removeWindow: (id: string) => call(insights.removeWindow, { params: { id } }),
  attendance: (siteId: string, query: OperationQuery<typeof insights.attendance> = {}) => call(insights.attendance, { params: { id: siteId }, query }),
  report: (query: ReportQueryInput, signal?: AbortSignal) => call(insights.report, { query, signal }),
  settings: () => call(insights.settings),
  saveSettings: (body: OperationBody<typeof insights.saveSettings>) => call(insights.saveSettings, { body }),

  /** A download's address for the report with this query (the browser sends the session cookie). */
  exportUrl: (format: ExportFormat, query: ReportQueryInput) => operationUrl(insightSharing[format], { query }),
  shares: () => call(insightSharing.shares),
  createShare: (body: OperationBody<typeof insightSharing.createShare>) => call(insightSharing.createShare, { body }),
  revokeShare: (id: string) => call(insightSharing.revokeShare, { params: { id } }),
  schedules: () => call(insightSharing.schedules),
  createSchedule: (body: OperationBody<typeof insightSharing.createSchedule>) => call(insightSharing.createSchedule, { body }),
  removeSchedule: (id: string) => call(insightSharing.removeSchedule, { params: { id } }),
};
