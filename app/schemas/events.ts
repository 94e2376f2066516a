// The events Framewise sends out, as schemas: the payloads POSTed to a user's webhook (the OpenAPI document lists
// them under `webhooks`; server/webhooks/events.ts builds them typed from these) and the facts an alert reports by
// e-mail or SMS (server/alerts/messages.ts words them; the queued send_alert job is typed from alertJobSchema).
import { z } from "zod";
import { alertChannelSchema } from "./automation";
import { dateTimeSchema, uuidSchema } from "./common";
import { visionBoxSchema } from "./local-vision";
import { sessionSchema } from "./people-count";
import { detectionBoxSchema, photoSchema } from "./photos";
import { searchFiltersSchema } from "./search";
import { storySchema } from "./stories";

/** Standard Webhooks' suggested envelope; `event` repeats `type` for receivers built on the browser-era shape. */
const envelopeOf = <const Type extends string, Data extends z.ZodType>(type: Type, data: Data) =>
  z.object({ type: z.literal(type), event: z.literal(type), timestamp: dateTimeSchema.describe("ISO 8601, when the event was made"), data });

const detectionMade = z.object({
  object: photoSchema.shape.detectionQuery,
  detected: z.boolean(),
  timestamp: photoSchema.shape.createdAt.describe("when the photo was taken"),
  boxCount: z.number().int(),
});
/** Where a finished story or session is looked at. */
const studioUrl = z.string().describe("the studio's address");

/** What every local-vision event carries: where, which tracked object, when, and its box (normalised 0–1). */
const visionEventData = z.object({
  cameraId: uuidSchema,
  cameraName: z.string(),
  trackId: z.number().int().describe("the studio tracker's id for the object, unique while it is tracked"),
  label: z.string().describe("the object's class, e.g. person"),
  at: dateTimeSchema.describe("when it happened (the frame's time)"),
  box: visionBoxSchema,
  photoId: uuidSchema.optional().describe("the photo saved of the event, when the studio saved one"),
  photoUrl: z.string().optional().describe("a signed link to that photo, valid for 7 days"),
  description: z.string().optional().describe("Moondream's description of the event's frame, when asked for"),
});
const lineEventData = visionEventData.extend({ lineId: uuidSchema, lineName: z.string(), direction: z.enum(["in", "out"]) });
const zoneEventData = visionEventData.extend({ zoneId: uuidSchema, zoneName: z.string() });
const dwellSeconds = z.number().describe("seconds inside the zone");

/** Events POSTed to the user's webhook, signed per Standard Webhooks; the key is the event's `type`. */
export const webhookEvents = {
  detection_made: {
    summary: "An auto-captured photo was saved with detections (event type 'simple')",
    schema: envelopeOf("detection_made", detectionMade),
  },
  detection_details: {
    summary: "An auto-captured photo was saved with detections (event type 'detailed'); photoUrl opens the image without a session for 7 days",
    schema: envelopeOf(
      "detection_details",
      detectionMade.extend({
        boxes: z.array(detectionBoxSchema),
        cameraId: photoSchema.shape.cameraId,
        cameraName: photoSchema.shape.cameraName,
        autoCapture: photoSchema.shape.autoCapture,
        photoId: photoSchema.shape.id,
        photoUrl: z.string().describe("a signed link to the original image, valid for 7 days"),
      }),
    ),
  },
  story_finished: {
    summary: "A story was finished",
    schema: envelopeOf(
      "story_finished",
      z.object({
        storyId: storySchema.shape.id,
        title: storySchema.shape.title,
        cameraId: storySchema.shape.cameraId,
        cameraName: storySchema.shape.cameraName,
        startedAt: storySchema.shape.createdAt,
        finishedAt: dateTimeSchema,
        url: studioUrl,
      }),
    ),
  },
  people_count_session_finished: {
    summary: "A people-counting session was finished",
    schema: envelopeOf(
      "people_count_session_finished",
      z.object({
        sessionId: sessionSchema.shape.id,
        title: sessionSchema.shape.title,
        cameraId: sessionSchema.shape.cameraId,
        cameraName: sessionSchema.shape.cameraName,
        startedAt: sessionSchema.shape.createdAt,
        finishedAt: dateTimeSchema,
        snapshotCount: sessionSchema.shape.snapshotCount,
        averageCount: sessionSchema.shape.averageCount,
        minCount: sessionSchema.shape.minCount,
        maxCount: sessionSchema.shape.maxCount,
        source: sessionSchema.shape.source,
        url: studioUrl,
      }),
    ),
  },
  "line.crossed": {
    summary: "A tracked object crossed a counting line (local vision); direction in is to the right of a → b as seen on screen",
    schema: envelopeOf("line.crossed", lineEventData),
  },
  "zone.entered": {
    summary: "A tracked object entered a zone (local vision)",
    schema: envelopeOf("zone.entered", zoneEventData),
  },
  "zone.exited": {
    summary: "A tracked object left a zone (local vision), with how long it stayed",
    schema: envelopeOf("zone.exited", zoneEventData.extend({ dwellSeconds })),
  },
  "zone.loitering": {
    summary: "A tracked object stayed in a zone longer than the zone's loitering time (local vision)",
    schema: envelopeOf("zone.loitering", zoneEventData.extend({ dwellSeconds })),
  },
  "search.matched": {
    summary: "A newly saved photo matched one of the user's saved searches (each saved search fires at most once per photo)",
    schema: envelopeOf(
      "search.matched",
      z.object({
        savedSearchId: uuidSchema,
        name: z.string().describe("the saved search's name"),
        query: searchFiltersSchema,
        photoId: photoSchema.shape.id,
        photoUrl: z.string().describe("a signed link to the original image, valid for 7 days"),
        cameraId: photoSchema.shape.cameraId,
        cameraName: photoSchema.shape.cameraName,
        takenAt: photoSchema.shape.createdAt,
        detectionQuery: photoSchema.shape.detectionQuery,
        description: photoSchema.shape.description,
      }),
    ),
  },
  webhook_test: {
    summary: "Sent by POST /api/webhooks/test",
    schema: envelopeOf("webhook_test", z.object({ message: z.string() })),
  },
};

export type WebhookEventType = keyof typeof webhookEvents;
export const WEBHOOK_EVENT_TYPES = Object.keys(webhookEvents) as WebhookEventType[];
/** One event as it is sent (the envelope with its data). */
export type WebhookEvent<Type extends WebhookEventType = WebhookEventType> = { [T in Type]: z.input<(typeof webhookEvents)[T]["schema"]> }[Type];
/** The `data` of one event type, as its builder makes it. */
export type WebhookEventData<Type extends WebhookEventType> = WebhookEvent<Type>["data"];

/** A local-vision alert: the event, its line or zone, the object's class. */
const visionAlert = (summary: string) => ({
  summary,
  schema: z.object({
    name: z.string().describe("the line's or zone's name"),
    label: z.string(),
    cameraName: z.string(),
    at: dateTimeSchema,
    direction: z.enum(["in", "out"]).optional(),
    dwellSeconds: z.number().optional(),
    description: z.string().optional(),
    photoUrl: z.string().optional(),
    url: studioUrl,
  }),
});
/** The facts an alert reports, by rule kind; server/alerts/messages.ts words them for e-mail and SMS. */
export const alertEvents = {
  detection: {
    summary: "A saved photo's detection matched a detection rule",
    schema: z.object({
      object: z.string().describe("what was detected, as the detection asked for it"),
      cameraName: photoSchema.shape.cameraName,
      at: photoSchema.shape.createdAt,
      boxCount: z.number().int(),
      photoUrl: z.string().describe("a signed link to the photo, valid for 7 days"),
    }),
  },
  people_count: {
    summary: "A people count went over a rule's limit",
    schema: z.object({
      count: z.number().int(),
      cameraName: sessionSchema.shape.cameraName,
      sessionTitle: sessionSchema.shape.title,
      at: dateTimeSchema,
      url: studioUrl,
    }),
  },
  line_crossed: visionAlert("A tracked object crossed a counting line"),
  zone_entered: visionAlert("A tracked object entered a zone"),
  zone_exited: visionAlert("A tracked object left a zone"),
  zone_loitering: visionAlert("A tracked object stayed in a zone past its loitering time"),
  search_matched: {
    summary: "A newly saved photo matched a saved search",
    schema: z.object({
      name: z.string().describe("the saved search's name"),
      cameraName: photoSchema.shape.cameraName,
      at: photoSchema.shape.createdAt,
      photoUrl: z.string().describe("a signed link to the photo, valid for 7 days"),
    }),
  },
};

export type AlertEventKind = keyof typeof alertEvents;
export type AlertEventData<Kind extends AlertEventKind> = z.input<(typeof alertEvents)[Kind]["schema"]>;

/** What an alert says: a subject and text for e-mail, and a short form for SMS (one or two segments). */
export const alertMessageSchema = z.object({ subject: z.string(), text: z.string(), sms: z.string() });
export type AlertMessage = z.infer<typeof alertMessageSchema>;

/** The queued send_alert job: one message to the user's verified contact on one channel. */
export const alertJobSchema = z.object({
  userId: uuidSchema,
  ruleId: uuidSchema,
  channel: alertChannelSchema,
  subject: z.string(),
  /** The e-mail text, or the SMS text on the sms channel. */
  text: z.string(),
});
export type AlertJob = z.infer<typeof alertJobSchema>;
