// The insightSharing operations of the catalogue (see ./define.ts): a report as CSV, Excel or PDF, read-only share
// links (signed, expiring, revocable) with their public report and lobby widget, and scheduled e-mail reports.
import { z } from "zod";
import { reportQuerySchema, reportSchema, scheduleInputSchema, scheduleSchema, shareInputSchema, shareSchema } from "../insights";
import { defineOperation, noContent, signedLinkQuerySchema } from "./define";

const tag = "Insights sharing";
const file = (type: string, what: string) => ({ status: 200, schema: null, contentType: type, description: `${what} (Content-Disposition: attachment)` });
const signedQuery = z.object({ expires: signedLinkQuerySchema.shape.expires, signature: signedLinkQuerySchema.shape.signature });

export const insightSharing = {
  csv: defineOperation({
    method: "get",
    path: "/api/insights/report.csv",
    summary: "The report as CSV",
    tag,
    access: "user",
    query: reportQuerySchema,
    success: file("text/csv", "CSV"),
    errors: [400, 404],
  }),
  xlsx: defineOperation({
    method: "get",
    path: "/api/insights/report.xlsx",
    summary: "The report as an Excel workbook, a sheet per table",
    tag,
    access: "user",
    query: reportQuerySchema,
    success: file("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "Excel workbook"),
    errors: [400, 404],
  }),
  pdf: defineOperation({
    method: "get",
    path: "/api/insights/report.pdf",
    summary: "The printable report as PDF: charts and tables, one page per site or camera",
    tag,
    access: "user",
    query: reportQuerySchema,
    success: file("application/pdf", "PDF"),
    errors: [400, 404],
  }),
  shares: defineOperation({
    method: "get",
    path: "/api/insights/shares",
    summary: "The user's share links, newest first",
    tag,
    access: "user",
    success: { status: 200, schema: z.array(shareSchema) },
  }),
  createShare: defineOperation({
    method: "post",
    path: "/api/insights/shares",
    summary: "Make a read-only share link (a report page or a lobby widget) that expires",
    tag,
    access: "user",
    body: shareInputSchema,
    success: { status: 201, schema: shareSchema },
    errors: [400, 404, 409],
  }),
  revokeShare: defineOperation({
    method: "delete",
    path: "/api/insights/shares/{id}",
    summary: "Revoke a share link at once",
    tag,
    access: "user",
    success: noContent,
    errors: [404],
  }),
  sharedReport: defineOperation({
    method: "get",
    path: "/api/insights/shared/{id}",
    summary: "A share link's report (no session: the link's signature); 404 when revoked, expired or forged",
    tag,
    access: "public",
    query: signedQuery,
    success: { status: 200, schema: reportSchema },
    errors: [404],
  }),
  schedules: defineOperation({
    method: "get",
    path: "/api/insights/schedules",
    summary: "The user's scheduled e-mail reports",
    tag,
    access: "user",
    success: { status: 200, schema: z.array(scheduleSchema) },
  }),
  createSchedule: defineOperation({
    method: "post",
    path: "/api/insights/schedules",
    summary: "E-mail a report weekly or monthly to chosen addresses, its summary in the mail and the PDF attached",
    tag,
    access: "user",
    body: scheduleInputSchema,
    success: { status: 201, schema: scheduleSchema },
    errors: [400, 404, 409, 503],
  }),
  removeSchedule: defineOperation({
    method: "delete",
    path: "/api/insights/schedules/{id}",
    summary: "Stop a scheduled report",
    tag,
    access: "user",
    success: noContent,
    errors: [404],
  }),
};
