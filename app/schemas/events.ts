// The events Framewise POSTs to a user's webhook, as schemas: the OpenAPI document lists them (`webhooks`).
import { z } from "zod";

/** Events POSTed to the user's webhook (OpenAPI `webhooks`), signed per Standard Webhooks. */
const envelopeOf = (type: string, data: z.ZodType) => z.object({ type: z.literal(type), event: z.literal(type), timestamp: z.string().describe("ISO 8601, when the event was made"), data });
const detectionSimple = z.object({ object: z.string().nullable(), detected: z.boolean(), timestamp: z.string(), boxCount: z.number().int() });
const box = z.object({ x_min: z.number(), y_min: z.number(), x_max: z.number(), y_max: z.number() });
export const webhookEvents: { name: string; summary: string; schema: z.ZodType }[] = [
  { name: "detection_made", summary: "An auto-captured photo was saved with detections (event type 'simple')", schema: envelopeOf("detection_made", detectionSimple) },
  {
    name: "detection_details",
    summary: "An auto-captured photo was saved with detections (event type 'detailed'); photoUrl opens the image without a session for 7 days",
    schema: envelopeOf("detection_details", detectionSimple.extend({ boxes: z.array(box), cameraId: z.string().nullable(), cameraName: z.string().nullable(), autoCapture: z.boolean(), photoId: z.string(), photoUrl: z.string() })),
  },
  {
    name: "story_finished",
    summary: "A story was finished",
    schema: envelopeOf("story_finished", z.object({ storyId: z.string(), title: z.string(), cameraId: z.string().nullable(), cameraName: z.string().nullable(), startedAt: z.string(), finishedAt: z.string(), url: z.string() })),
  },
  {
    name: "people_count_session_finished",
    summary: "A people-counting session was finished",
    schema: envelopeOf("people_count_session_finished", z.object({ sessionId: z.string(), title: z.string(), cameraId: z.string().nullable(), cameraName: z.string().nullable(), startedAt: z.string(), finishedAt: z.string(), snapshotCount: z.number().int(), averageCount: z.number().nullable(), minCount: z.number().nullable(), maxCount: z.number().nullable(), url: z.string() })),
  },
  { name: "webhook_test", summary: "Sent by POST /api/webhooks/test", schema: envelopeOf("webhook_test", z.object({ message: z.string() })) },
];
