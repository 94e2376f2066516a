// The insightSharing operations' handlers (app/schemas/operations/insight-sharing.ts), one per catalogue entry.
import { db } from "#db/index";
import type { ResourceHandlers } from "#server/http/api";
import { handle } from "#server/http/operation";
import { fileResponse, reportFile } from "#server/insights/sharing/files";
import { createSchedule, listSchedules, removeSchedule } from "#server/insights/sharing/schedules";
import { createShare, listShares, revokeShare, sharedReport } from "#server/insights/sharing/shares";
import { api } from "../../schemas/operations/index";

export const insightSharing = {
  // GET /api/insights/report.csv|.xlsx|.pdf?<report query> → the report as a download (Content-Disposition).
  csv: handle(api.insightSharing.csv, async ({ user, query }) => fileResponse(await reportFile(db(), user.id, query, "csv"))),
  xlsx: handle(api.insightSharing.xlsx, async ({ user, query }) => fileResponse(await reportFile(db(), user.id, query, "xlsx"))),
  pdf: handle(api.insightSharing.pdf, async ({ user, query }) => fileResponse(await reportFile(db(), user.id, query, "pdf"))),
  // GET/POST /api/insights/shares, DELETE /api/insights/shares/:id → the user's signed, expiring share links.
  shares: handle(api.insightSharing.shares, async ({ user }) => listShares(db(), user.id)),
  createShare: handle(api.insightSharing.createShare, async ({ user, body }) => createShare(db(), user.id, body)),
  revokeShare: handle(api.insightSharing.revokeShare, { resource: "Share link" }, async ({ user, params }) => revokeShare(db(), user.id, params.id)),
  // GET /api/insights/shared/:id?expires&signature → the share's report, read now; public (the signature is the key).
  sharedReport: handle(api.insightSharing.sharedReport, { resource: "Share link" }, async ({ params, query, headers }) => {
    headers.set("Cache-Control", "no-store");
    headers.set("X-Robots-Tag", "noindex");
    return (await sharedReport(db(), params.id, query)).report;
  }),
  // GET/POST /api/insights/schedules, DELETE /api/insights/schedules/:id → weekly or monthly e-mailed reports.
  schedules: handle(api.insightSharing.schedules, async ({ user }) => listSchedules(db(), user.id)),
  createSchedule: handle(api.insightSharing.createSchedule, async ({ user, body }) => createSchedule(db(), user.id, body)),
  removeSchedule: handle(api.insightSharing.removeSchedule, { resource: "Scheduled report" }, async ({ user, params }) => removeSchedule(db(), user.id, params.id)),
} satisfies ResourceHandlers<typeof api.insightSharing>;
