// Insights: the reports made of local vision's counts (issue 31). Sites group cameras and their doors (lines) under one
// time zone; services and opening hours are recurring windows of a site; a report is what the Insights page, the
// exports, the share links and the scheduled e-mails show. Every time in a report is in the report's time zone.
import { z } from "zod";
import { dateTimeSchema, listQueryParam, requiredText, uuidSchema } from "./common";

/** The steps a traffic series can be drawn in. */
export const RESOLUTIONS = ["minute", "hour", "day", "week", "month"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
/** How many points a series may have: a year by day, a week by hour, a day by minute fit. */
export const MAX_SERIES_POINTS = 1500;
/** The longest period one report covers. */
export const MAX_REPORT_DAYS = 400;
export const MAX_SITES = 50;
export const MAX_WINDOWS_PER_SITE = 50;
export const MAX_SITE_CAMERAS = 20;
export const MAX_SHARES = 50;
export const MAX_SCHEDULES = 20;
export const MAX_RECIPIENTS = 10;
/** Per-minute counts are kept this many days by default; hourly and daily rollups are kept for good. */
export const DEFAULT_MINUTE_RETENTION_DAYS = 90;
/** At least a week: events arrive up to a day late, and the rollup job reads the minutes. */
export const MIN_MINUTE_RETENTION_DAYS = 7;
export const MAX_MINUTE_RETENTION_DAYS = 730;
/** Dwell-time buckets (upper bounds in seconds, the last open-ended), the zone's dwell histogram. */
export const DWELL_BUCKETS = [10, 30, 60, 120, 300, 600, 1800, 3600] as const;

/** An IANA time zone name the runtime knows ("Europe/London"). */
export const timeZoneSchema = z
  .string({ error: "Time zone is required" })
  .trim()
  .min(1, "Time zone is required")
  .max(64)
  .refine(isTimeZone, { error: "Choose a time zone from the list (like Europe/London)" });

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A calendar date, YYYY-MM-DD, that exists. */
export const localDateSchema = z
  .string({ error: "Date is required" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Date must be YYYY-MM-DD")
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), {
    error: "Date does not exist",
  });

/** A time of day, HH:MM (24-hour clock). */
export const clockSchema = z.string({ error: "Time is required" }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Time must be HH:MM (24-hour clock)");

// ---- Sites ------------------------------------------------------------------------------------------------------------

export const doorSchema = z.object({
  lineId: uuidSchema,
  entering: z
    .enum(["in", "out"], { error: "entering must be in or out" })
    .describe('the line\'s direction that is an entry: "in" (as drawn) or "out" (a line drawn the other way)'),
});
export type Door = z.infer<typeof doorSchema>;

export const siteInputSchema = z.object({
  name: requiredText("Name", 100),
  timeZone: timeZoneSchema,
  dayStartsAt: z
    .number({ error: "Day starts at must be an hour" })
    .int("Day starts at must be a whole hour")
    .min(0, "Day starts at must be between 0 and 23")
    .max(23, "Day starts at must be between 0 and 23")
    .describe("the hour (0–23) occupancy is reset to zero each day")
    .default(4),
  capacity: z
    .number({ error: "Capacity must be a number" })
    .int("Capacity must be a whole number")
    .min(1, "Capacity must be at least 1")
    .max(1_000_000)
    .nullable()
    .default(null)
    .describe("the most people allowed in at once (a fire limit); peak occupancy is shown against it"),
  cameraIds: z
    .array(uuidSchema)
    .min(1, "Choose at least one camera")
    .max(MAX_SITE_CAMERAS, `At most ${MAX_SITE_CAMERAS} cameras`)
    .describe("the site's cameras: a camera belongs to at most one site, whose time zone its daily figures use"),
  doors: z.array(doorSchema).max(100).default([]).describe("the lines (on the site's cameras) people enter and leave by; empty: every line of the site's cameras, in = entering"),
});
export type SiteInput = z.infer<typeof siteInputSchema>;

export const siteSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  timeZone: z.string(),
  dayStartsAt: z.number().int(),
  capacity: z.number().int().nullable(),
  cameraIds: z.array(uuidSchema),
  doors: z.array(doorSchema),
  createdAt: dateTimeSchema,
});
export type Site = z.infer<typeof siteSchema>;

// ---- Services and opening hours ---------------------------------------------------------------------------------------

/** weekly: every chosen weekday; once: a one-off event on a date; closed: a holiday, no weekly window that date. */
export const WINDOW_KINDS = ["weekly", "once", "closed"] as const;

export const windowInputSchema = z
  .object({
    name: requiredText("Name", 100),
    kind: z.enum(WINDOW_KINDS, { error: "kind must be weekly, once or closed" }),
    weekdays: z.array(z.number().int().min(0).max(6), { error: "Choose the days" }).max(7).default([]).describe("weekly: the days, 0 = Sunday … 6 = Saturday"),
    startsAt: clockSchema.default("00:00"),
    endsAt: clockSchema.default("23:59"),
    date: localDateSchema.nullable().default(null).describe("once and closed: the date"),
  })
  .refine((w) => w.kind !== "weekly" || w.weekdays.length > 0, { message: "Choose at least one day", path: ["weekdays"] })
  .refine((w) => w.kind === "weekly" || w.date !== null, { message: "Choose the date", path: ["date"] })
  .refine((w) => w.kind === "closed" || w.endsAt > w.startsAt, { message: "Must end after it starts", path: ["endsAt"] });
export type WindowInput = z.infer<typeof windowInputSchema>;

export const windowSchema = z.object({
  id: uuidSchema,
  siteId: uuidSchema,
  name: z.string(),
  kind: z.enum(WINDOW_KINDS),
  weekdays: z.array(z.number().int()),
  startsAt: z.string(),
  endsAt: z.string(),
  date: z.string().nullable(),
  createdAt: dateTimeSchema,
});
export type InsightWindow = z.infer<typeof windowSchema>;

export const occurrenceSchema = z.object({
  windowId: uuidSchema,
  name: z.string(),
  date: z.string().describe("the local date"),
  start: dateTimeSchema,
  end: dateTimeSchema,
  entries: z.number().int().describe("people who came in during the window"),
  exits: z.number().int(),
  peak: z.number().int().describe("the most people in at once during the window (occupancy, reset at the site's day start)"),
  peakAt: dateTimeSchema.nullable(),
  arrivals: z.array(z.object({ start: dateTimeSchema, entries: z.number().int() })).describe("entries per 15 minutes, from 30 minutes before the start to the end"),
});
export type Occurrence = z.infer<typeof occurrenceSchema>;

export const attendanceQuerySchema = z.object({
  from: localDateSchema.optional().describe("first local date; default: 12 weeks before to"),
  to: localDateSchema.optional().describe("last local date (inclusive); default: today"),
  windowId: uuidSchema.optional(),
});
export type AttendanceQuery = z.infer<typeof attendanceQuerySchema>;

export const attendanceSchema = z.object({
  siteId: uuidSchema,
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  occurrences: z.array(occurrenceSchema).describe("oldest first; holidays and future occurrences left out"),
});
export type Attendance = z.infer<typeof attendanceSchema>;

// ---- Reports ---------------------------------------------------------------------------------------------------------

/** A report's filter: a site (its cameras, doors and zones) or cameras, and within them lines, zones and classes. */
export const reportFilterSchema = z.object({
  siteId: uuidSchema.optional(),
  cameraIds: z.array(uuidSchema).max(50).default([]).describe("empty: the site's cameras, or every camera"),
  lineIds: z.array(uuidSchema).max(100).default([]).describe("empty: the site's doors, or every line of the cameras"),
  zoneIds: z.array(uuidSchema).max(100).default([]).describe("empty: every zone of the cameras"),
  labels: z.array(z.string().trim().min(1).max(40)).max(20).default([]).describe("classes; empty: all"),
});
export type ReportFilter = z.infer<typeof reportFilterSchema>;

/** The query string of a report: the filter as comma lists, the period as local dates. */
export const reportQuerySchema = z.object({
  siteId: uuidSchema.optional(),
  cameraIds: listQueryParam(uuidSchema, 50, "cameras").optional(),
  lineIds: listQueryParam(uuidSchema, 100, "lines").optional(),
  zoneIds: listQueryParam(uuidSchema, 100, "zones").optional(),
  labels: listQueryParam(z.string().max(40), 20, "classes").optional(),
  from: localDateSchema.optional().describe("first local date; default: 6 days before to"),
  to: localDateSchema.optional().describe("last local date (inclusive); default: today"),
  resolution: z
    .enum(RESOLUTIONS, { error: `resolution must be one of: ${RESOLUTIONS.join(", ")}` })
    .optional()
    .describe("default: by the period's length"),
  timeZone: timeZoneSchema.optional().describe("default: the site's, else the Insights setting"),
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** A period said relative to the day it is read: what a share link or a scheduled e-mail shows. */
export const RELATIVE_PERIODS = ["today", "yesterday", "last7Days", "thisWeek", "lastWeek", "last30Days", "thisMonth", "lastMonth", "thisYear"] as const;
export type RelativePeriod = (typeof RELATIVE_PERIODS)[number];

export const savedViewSchema = reportFilterSchema.extend({
  period: z.enum(RELATIVE_PERIODS, { error: "Choose a period" }),
});
export type SavedView = z.infer<typeof savedViewSchema>;

const totalsSchema = z.object({ from: z.string(), to: z.string(), entries: z.number().int(), exits: z.number().int() });

export const reportSchema = z.object({
  title: z.string().describe("the site's name, or the cameras'"),
  timeZone: z.string(),
  from: z.string().describe("first local date"),
  to: z.string().describe("last local date (inclusive)"),
  resolution: z.enum(RESOLUTIONS),
  capacity: z.number().int().nullable(),
  totals: totalsSchema.extend({
    previous: totalsSchema.describe("the period of the same length just before"),
    lastYear: totalsSchema.nullable().describe("the same dates a year before; null when there is no data then"),
  }),
  traffic: z.array(z.object({ start: dateTimeSchema, entries: z.number().int(), exits: z.number().int() })).describe("entries and exits per step"),
  occupancy: z.object({
    peak: z.number().int().nullable(),
    peakAt: dateTimeSchema.nullable(),
    days: z.array(z.object({ date: z.string(), entries: z.number().int(), exits: z.number().int(), peak: z.number().int(), peakAt: dateTimeSchema.nullable() })),
    curve: z
      .array(z.object({ at: dateTimeSchema, occupancy: z.number().int() }))
      .describe("people in, through the period (entries − exits, reset at the day start); periods up to 31 days"),
    detail: z.enum(["minute", "hour"]).describe("minute counts where kept, else hours (the peak's time is then the hour)"),
  }),
  weekHours: z.array(z.array(z.number().int()).length(24)).length(7).describe("entries by weekday (0 = Monday) and hour of day"),
  lines: z.array(z.object({ id: uuidSchema, name: z.string(), cameraName: z.string(), in: z.number().int(), out: z.number().int() })),
  zones: z.array(
    z.object({
      id: uuidSchema,
      name: z.string(),
      cameraName: z.string(),
      entered: z.number().int(),
      exited: z.number().int(),
      loitering: z.number().int(),
      dwell: z.object({
        median: z.number().nullable().describe("seconds, from the histogram"),
        buckets: z.array(z.object({ upTo: z.number().nullable(), count: z.number().int() })).describe("exits by time spent; upTo null: longer"),
      }),
    }),
  ),
  sessions: z.array(
    z.object({
      id: uuidSchema,
      title: z.string(),
      source: z.enum(["moondream", "local"]),
      cameraName: z.string().nullable(),
      average: z.number().nullable(),
      max: z.number().int().nullable(),
      points: z.array(z.object({ at: dateTimeSchema, count: z.number() })),
    }),
  ),
});
export type InsightsReport = z.infer<typeof reportSchema>;

// ---- Settings --------------------------------------------------------------------------------------------------------

export const insightSettingsSchema = z.object({
  timeZone: timeZoneSchema.describe("for cameras in no site, and reports without one"),
  minuteRetentionDays: z
    .number({ error: "Keep minutes for must be a number of days" })
    .int("Keep minutes for must be whole days")
    .min(MIN_MINUTE_RETENTION_DAYS, `Keep minutes for at least ${MIN_MINUTE_RETENTION_DAYS} days`)
    .max(MAX_MINUTE_RETENTION_DAYS, `Keep minutes for at most ${MAX_MINUTE_RETENTION_DAYS} days`),
});
export type InsightSettings = z.infer<typeof insightSettingsSchema>;

// ---- Sharing ---------------------------------------------------------------------------------------------------------

export const shareInputSchema = z.object({
  name: requiredText("Name", 100),
  kind: z.enum(["report", "widget"], { error: "kind must be report or widget" }).describe("report: the read-only report page; widget: the lobby-screen number"),
  view: savedViewSchema,
  expiresInDays: z
    .number({ error: "Expires in must be a number of days" })
    .int("Expires in must be whole days")
    .min(1, "Expires in at least 1 day")
    .max(365, "Expires in at most 365 days")
    .default(30),
});
export type ShareInput = z.infer<typeof shareInputSchema>;

export const shareSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  kind: z.enum(["report", "widget"]),
  view: savedViewSchema,
  url: z.string().describe("the signed link (path and query); works without a session until it expires or is revoked"),
  expiresAt: dateTimeSchema,
  revokedAt: dateTimeSchema.nullable(),
  createdAt: dateTimeSchema,
});
export type Share = z.infer<typeof shareSchema>;

export const scheduleInputSchema = z.object({
  name: requiredText("Name", 100),
  frequency: z
    .enum(["weekly", "monthly"], { error: "frequency must be weekly or monthly" })
    .describe("weekly: Mondays, last week; monthly: the 1st, last month; at 07:00 in the report's time zone"),
  recipients: z.array(z.email("Enter valid e-mail addresses")).min(1, "Add at least one address").max(MAX_RECIPIENTS, `At most ${MAX_RECIPIENTS} addresses`),
  view: reportFilterSchema,
});
export type ScheduleInput = z.infer<typeof scheduleInputSchema>;

export const scheduleSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  frequency: z.enum(["weekly", "monthly"]),
  recipients: z.array(z.string()),
  view: reportFilterSchema,
  nextRunAt: dateTimeSchema,
  lastSentAt: dateTimeSchema.nullable(),
  createdAt: dateTimeSchema,
});
export type Schedule = z.infer<typeof scheduleSchema>;
