// The events timeline (issue 32): one place to review what happened on the user's cameras. Shared by the API
// (app/schemas/operations/timeline.ts), the server (server/timeline/) and the page (/studio/timeline).
import { z } from "zod";
import { dateTimeSchema, listQueryParam, uuidSchema } from "./common";
import { localDateSchema, timeZoneSchema } from "./insights";

export const TIMELINE_TYPES = [
  "line.crossed",
  "zone.entered",
  "zone.exited",
  "zone.loitering",
  "photo.auto_captured",
  "monitor.result",
  "monitor.error",
  "alert.sent",
  "alert.failed",
  "webhook.failed",
] as const;
export type TimelineType = (typeof TIMELINE_TYPES)[number];

/** How each type is shown (the list, the filter, the strip's legend). */
export const TIMELINE_TYPE_LABELS: Record<TimelineType, string> = {
  "line.crossed": "Line crossed",
  "zone.entered": "Zone entered",
  "zone.exited": "Zone exited",
  "zone.loitering": "Loitering",
  "photo.auto_captured": "Auto-capture",
  "monitor.result": "Monitor result",
  "monitor.error": "Monitor error",
  "alert.sent": "Alert sent",
  "alert.failed": "Alert failed",
  "webhook.failed": "Webhook failed",
};

export const DEFAULT_TIMELINE_RETENTION_DAYS = 90;
export const MIN_TIMELINE_RETENTION_DAYS = 1;
export const MAX_TIMELINE_RETENTION_DAYS = 3650;
/** Events a page holds at most. */
export const MAX_TIMELINE_PAGE = 100;
/** The day strip's marks: one per camera, type and this many minutes, so a busy day stays small. */
export const DAY_BUCKET_MINUTES = 5;

/** A query parameter given more than once or as a comma list (`?type=a&type=b`, `?type=a,b`): its values. */
export const timelineQuerySchema = z.object({
  cameraId: listQueryParam(z.string().uuid("must be camera ids"), 50, "cameras").optional().describe("one or more cameras (repeat it, or a comma list)"),
  type: listQueryParam(z.enum(TIMELINE_TYPES, { error: `must be among ${TIMELINE_TYPES.join(", ")}` }), TIMELINE_TYPES.length, "types")
    .optional()
    .describe("one or more event types (repeat it, or a comma list)"),
  label: z.string().trim().min(1).max(50, "a class name must be at most 50 characters").optional().describe("the class (person, car…)"),
  from: dateTimeSchema.optional().describe("events at or after this time"),
  to: dateTimeSchema.optional().describe("events before this time"),
  q: z
    .string()
    .trim()
    .max(200, "search must be at most 200 characters")
    .optional()
    .describe('words, "a phrase" and -exclusions (websearch_to_tsquery); a misspelt word is matched to the nearest known one'),
  cursor: z.string().max(200).optional().describe("nextCursor of the previous page"),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(MAX_TIMELINE_PAGE, `limit must be at most ${MAX_TIMELINE_PAGE}`)
    .default(50),
});
export type TimelineQuery = z.infer<typeof timelineQuerySchema>;
export type TimelineQueryInput = z.input<typeof timelineQuerySchema>;

/** A stretch of text, marked when it matched the search (ts_headline). */
const highlightSchema = z.array(z.object({ text: z.string(), match: z.boolean() }));

export const timelineEventSchema = z.object({
  id: uuidSchema,
  type: z.enum(TIMELINE_TYPES),
  cameraId: uuidSchema.nullable(),
  cameraName: z.string().nullable().describe("kept when the camera is deleted"),
  label: z.string().nullable().describe("the class or object"),
  targetName: z.string().nullable().describe("the line's, zone's or monitor's name"),
  photoId: uuidSchema.nullable(),
  thumbnailUrl: z.string().nullable(),
  imageUrl: z.string().nullable(),
  description: z.string().nullable().describe("Moondream's description, or the message"),
  detail: z.record(z.string(), z.unknown()),
  occurredAt: dateTimeSchema,
  highlight: highlightSchema.nullable().describe("with q: the description (or class and names) with the matching words marked"),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;

export const timelinePageSchema = z.object({
  events: z.array(timelineEventSchema),
  nextCursor: z.string().nullable().describe("pass as cursor for the next page; null: no more"),
  searchedFor: z.string().nullable().describe("with q: the words searched for after typo correction"),
});
export type TimelinePage = z.infer<typeof timelinePageSchema>;

export const timelineDayQuerySchema = z.object({
  date: localDateSchema.optional().describe("YYYY-MM-DD (default: today in tz)"),
  tz: timeZoneSchema.optional().describe("the day's time zone (default UTC)"),
});

export const timelineDaySchema = z.object({
  date: z.string(),
  timeZone: z.string(),
  from: dateTimeSchema,
  to: dateTimeSchema,
  bucketMinutes: z.number().int(),
  cameras: z.array(
    z.object({
      cameraId: uuidSchema.nullable(),
      cameraName: z.string().nullable(),
      marks: z.array(
        z.object({
          at: dateTimeSchema.describe("the bucket's start"),
          type: z.enum(TIMELINE_TYPES),
          count: z.number().int(),
          eventId: uuidSchema.describe("the bucket's latest event"),
          eventAt: dateTimeSchema,
        }),
      ),
    }),
  ),
});
export type TimelineDay = z.infer<typeof timelineDaySchema>;

export const timelineSettingsSchema = z.object({
  retentionDays: z
    .number({ error: "Keep events for must be a number of days" })
    .int("Keep events for must be whole days")
    .min(MIN_TIMELINE_RETENTION_DAYS, `Keep events for at least ${MIN_TIMELINE_RETENTION_DAYS} day`)
    .max(MAX_TIMELINE_RETENTION_DAYS, `Keep events for at most ${MAX_TIMELINE_RETENTION_DAYS} days`),
});
export type TimelineSettings = z.infer<typeof timelineSettingsSchema>;
