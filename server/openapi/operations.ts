// Every /api operation, described once from the same zod schemas the routes validate with. The OpenAPI
// document is generated from this list, and a test checks it against the real route table both ways.
import { z } from "zod";
import { adminUserSchema, pageQuerySchema } from "../../app/schemas/admin";
import { currentUserSchema, loginSchema, signupSchema } from "../../app/schemas/auth";
import {
  cameraCreateSchema,
  cameraSchema,
  cameraUpdateSchema,
  cameraVideoSettingsSchema,
  presetCreateSchema,
  presetListQuerySchema,
  presetSchema,
} from "../../app/schemas/cameras";
import { exposureSchema, ptzCameraInfoSchema, ptzConnectSchema, ptzFocusSchema, ptzMoveSchema, ptzOkSchema, ptzPresetSchema, ptzStopSchema, ptzZoomSchema } from "../../app/schemas/ptz";
import { featureRequestInputSchema, featureRequestSchema } from "../../app/schemas/feature-requests";
import { lutCreateSchema, lutSchema, lutSummarySchema } from "../../app/schemas/luts";
import { sessionCreateSchema, sessionSchema, snapshotCorrectionSchema, snapshotSchema } from "../../app/schemas/people-count";
import { photoCreateSchema, photoListQuerySchema, photoSchema, photoWithImageSchema } from "../../app/schemas/photos";
import { captionCreateSchema, captionSchema, storyCreateSchema, storySchema, storyUpdateSchema } from "../../app/schemas/stories";
import {
  apiKeySaveSchema,
  apiKeyStatusSchema,
  assistantRequestSchema,
  assistantResponseSchema,
  captionRequestSchema,
  captionResponseSchema,
  countRequestSchema,
  countResponseSchema,
  detectRequestSchema,
  detectResponseSchema,
  liveQuerySchema,
  liveScoreboardSchema,
  pointRequestSchema,
  pointResponseSchema,
  scoreboardRequestSchema,
  scoreboardResponseSchema,
  freeCallsSchema,
} from "../../app/schemas/vision";
import {
  alertRuleInputSchema,
  alertRuleSchema,
  alertStatusSchema,
  contactStartSchema,
  contactVerifySchema,
  webhookDeliveriesSchema,
  webhookSecretSchema,
  webhookTestResultSchema,
} from "../../app/schemas/automation";
import { webhookSettingsSchema } from "../../app/schemas/webhooks";

const signedLinkQuerySchema = z.object({
  owner: z.string().optional().describe("signed link: the owner's id"),
  expires: z.string().optional().describe("signed link: Unix seconds"),
  signature: z.string().optional().describe("signed link: HMAC; the link needs no session"),
});

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

export type Method = "get" | "post" | "put" | "patch" | "delete";
export type Access = "public" | "user" | "admin";

export interface Operation {
  method: Method;
  /** OpenAPI path, parameters as {id}. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Success status and its JSON schema; null schema means no body (204) or a binary body. */
  success: { status: number; schema: z.ZodType | null; description?: string; contentType?: string };
  /** Problem statuses this operation answers beyond the usual 401/403 of its access level. */
  errors?: number[];
}

const image = (what: string) => ({ status: 200, schema: null, contentType: "image/*", description: `${what} bytes (ETag, Cache-Control: private, max-age=31536000, immutable; 304 on If-None-Match)` });
const noContent = { status: 204, schema: null };
/**
 * Every call that reaches Moondream: bad input, the user's free calls used up (402), frames too large or unreadable,
 * 429 (the key's queue is full or a `priority: "loop"` call would have to wait; the provider's own rate limit; the
 * shared key's daily pool spent), and provider failures.
 */
const aiErrors = [400, 402, 413, 422, 429, 502, 504];
/** Bad input, an address outside PTZ_ALLOWED_NETWORKS or a port outside PTZ_ALLOWED_PORTS, an unsupported command, wrong camera credentials, an unreachable camera. */
const ptzErrors = [400, 403, 501, 502, 504];

export const operations: Operation[] = [
  { method: "post", path: "/api/auth/signup", summary: "Create an account and sign in (setupToken: only the first administrator signing up from another machine)", tag: "Accounts", access: "public", body: signupSchema, success: { status: 201, schema: currentUserSchema }, errors: [400, 403, 409, 415, 429] },
  { method: "post", path: "/api/auth/login", summary: "Sign in (sets the session cookie)", tag: "Accounts", access: "public", body: loginSchema, success: { status: 200, schema: currentUserSchema }, errors: [400, 401, 415, 429] },
  { method: "post", path: "/api/auth/logout", summary: "Sign out (deletes the session)", tag: "Accounts", access: "public", success: noContent },
  { method: "get", path: "/api/auth/me", summary: "The signed-in user", tag: "Accounts", access: "user", success: { status: 200, schema: currentUserSchema } },
  { method: "delete", path: "/api/auth/me", summary: "Delete the account and everything in it", tag: "Accounts", access: "user", success: noContent },

  { method: "get", path: "/api/admin/users", summary: "All users, 100 a page (X-Total-Count)", tag: "Admin", access: "admin", query: pageQuerySchema, success: { status: 200, schema: z.array(adminUserSchema) }, errors: [400] },
  { method: "get", path: "/api/admin/feature-requests", summary: "All feature requests, newest first, 100 a page", tag: "Admin", access: "admin", query: pageQuerySchema, success: { status: 200, schema: z.array(featureRequestSchema) }, errors: [400] },
  { method: "post", path: "/api/feature-requests", summary: "Send a feature request", tag: "Feature requests", access: "user", body: featureRequestInputSchema, success: { status: 201, schema: featureRequestSchema }, errors: [400] },

  { method: "get", path: "/api/cameras", summary: "The user's cameras", tag: "Cameras", access: "user", success: { status: 200, schema: z.array(cameraSchema) } },
  { method: "post", path: "/api/cameras", summary: "Add a camera (webcam by deviceId, or a static photo by thumbnail)", tag: "Cameras", access: "user", body: cameraCreateSchema, success: { status: 201, schema: cameraSchema }, errors: [400, 413, 422] },
  { method: "get", path: "/api/cameras/{id}", summary: "One camera", tag: "Cameras", access: "user", success: { status: 200, schema: cameraSchema }, errors: [404] },
  { method: "put", path: "/api/cameras/{id}", summary: "Rename the camera or replace its thumbnail", tag: "Cameras", access: "user", body: cameraUpdateSchema, success: { status: 200, schema: cameraSchema }, errors: [400, 404, 413, 422] },
  { method: "patch", path: "/api/cameras/{id}", summary: "Save video settings", tag: "Cameras", access: "user", body: cameraVideoSettingsSchema, success: { status: 200, schema: cameraSchema }, errors: [400, 404] },
  { method: "delete", path: "/api/cameras/{id}", summary: "Delete the camera (its photos, stories and sessions stay)", tag: "Cameras", access: "user", success: noContent, errors: [404] },
  { method: "get", path: "/api/cameras/{id}/thumbnail", summary: "The camera's 320 px thumbnail JPEG", tag: "Cameras", access: "user", success: image("Thumbnail"), errors: [404] },
  { method: "get", path: "/api/cameras/{id}/image", summary: "The full picture sent as the camera's thumbnail (a static photo's source)", tag: "Cameras", access: "user", success: image("Picture"), errors: [404] },

  { method: "get", path: "/api/presets", summary: "Saved PTZ presets, optionally of one camera", tag: "Presets", access: "user", query: presetListQuerySchema, success: { status: 200, schema: z.array(presetSchema) }, errors: [400] },
  { method: "post", path: "/api/presets", summary: "Save a preset by number or position", tag: "Presets", access: "user", body: presetCreateSchema, success: { status: 201, schema: presetSchema }, errors: [400, 404, 409] },
  { method: "delete", path: "/api/presets/{id}", summary: "Delete a preset", tag: "Presets", access: "user", success: noContent, errors: [404] },

  { method: "post", path: "/api/ptz/connect", summary: "Verify a PTZ camera (ONVIF, VISCA over TCP or PTZOptics HTTP-CGI; found when protocol is omitted) and return its model", tag: "PTZ", access: "user", body: ptzConnectSchema, success: { status: 200, schema: ptzCameraInfoSchema }, errors: ptzErrors },
  { method: "post", path: "/api/ptz/move", summary: "Start a pan/tilt in a direction at speed 1–24 (or go home); it runs until stop, durationMs, or 2 s without a command", tag: "PTZ", access: "user", body: ptzMoveSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors },
  { method: "post", path: "/api/ptz/zoom", summary: "Zoom in or out until stop (or 2 s without a command)", tag: "PTZ", access: "user", body: ptzZoomSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors },
  { method: "post", path: "/api/ptz/focus", summary: "Focus near or far until stop, or back to autofocus", tag: "PTZ", access: "user", body: ptzFocusSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors },
  { method: "post", path: "/api/ptz/stop", summary: "Stop pan/tilt, zoom and focus (or one of them)", tag: "PTZ", access: "user", body: ptzStopSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors },
  { method: "post", path: "/api/ptz/preset", summary: "Save, recall or delete one of the camera's own preset slots (90–99, 150, 151 are reserved)", tag: "PTZ", access: "user", body: ptzPresetSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors },
  { method: "post", path: "/api/exposure", summary: "Set a manual exposure value of a PTZ camera (shutter, iris, gain, temperature, tint, saturation, or mode)", tag: "PTZ", access: "user", body: exposureSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors },

  { method: "get", path: "/api/photos", summary: "Photos newest first; the next page's cursor is in X-Next-Cursor and Link", tag: "Photos", access: "user", query: photoListQuerySchema, success: { status: 200, schema: z.array(photoSchema) }, errors: [400] },
  { method: "post", path: "/api/photos", summary: "Save a captured photo (JPEG, PNG or WebP data URL ≤ 15 MB, ≤ 40 MP)", tag: "Photos", access: "user", body: photoCreateSchema, success: { status: 201, schema: photoSchema }, errors: [400, 404, 409, 413, 422, 507] },
  { method: "get", path: "/api/photos/{id}", summary: "One photo with its image as a data URL", tag: "Photos", access: "user", success: { status: 200, schema: photoWithImageSchema }, errors: [404] },
  { method: "delete", path: "/api/photos/{id}", summary: "Delete a photo and its image", tag: "Photos", access: "user", success: noContent, errors: [404] },
  { method: "get", path: "/api/photos/{id}/image", summary: "The original image (owner, or anyone with a signed link from a webhook or alert)", tag: "Photos", access: "user", query: signedLinkQuerySchema, success: image("Image"), errors: [404] },
  { method: "get", path: "/api/photos/{id}/thumbnail", summary: "The 320 px JPEG thumbnail", tag: "Photos", access: "user", success: image("Thumbnail"), errors: [404] },

  { method: "get", path: "/api/stories", summary: "Stories newest first", tag: "Stories", access: "user", success: { status: 200, schema: z.array(storySchema) } },
  { method: "post", path: "/api/stories", summary: "Start a story", tag: "Stories", access: "user", body: storyCreateSchema, success: { status: 201, schema: storySchema }, errors: [400, 404] },
  { method: "get", path: "/api/stories/{id}", summary: "One story", tag: "Stories", access: "user", success: { status: 200, schema: storySchema }, errors: [404] },
  { method: "patch", path: "/api/stories/{id}", summary: "Rename a story", tag: "Stories", access: "user", body: storyUpdateSchema, success: { status: 200, schema: storySchema }, errors: [400, 404] },
  { method: "delete", path: "/api/stories/{id}", summary: "Delete a story (its photos stay)", tag: "Stories", access: "user", success: noContent, errors: [404] },
  { method: "post", path: "/api/stories/{id}/finish", summary: "Finish a story", tag: "Stories", access: "user", success: { status: 200, schema: storySchema }, errors: [404] },
  { method: "get", path: "/api/stories/{id}/captions", summary: "The story's captions in order", tag: "Stories", access: "user", success: { status: 200, schema: z.array(captionSchema) }, errors: [404] },
  { method: "post", path: "/api/stories/{id}/captions", summary: "Add a caption", tag: "Stories", access: "user", body: captionCreateSchema, success: { status: 201, schema: captionSchema }, errors: [400, 404, 409] },
  { method: "get", path: "/api/stories/{id}/photos", summary: "The story's photos, oldest first", tag: "Stories", access: "user", success: { status: 200, schema: z.array(photoSchema) }, errors: [404] },

  { method: "get", path: "/api/people-count/sessions", summary: "Counting sessions newest first", tag: "People counting", access: "user", success: { status: 200, schema: z.array(sessionSchema) } },
  { method: "post", path: "/api/people-count/sessions", summary: "Start a counting session", tag: "People counting", access: "user", body: sessionCreateSchema, success: { status: 201, schema: sessionSchema }, errors: [400, 404] },
  { method: "get", path: "/api/people-count/sessions/{id}", summary: "One session with its stats", tag: "People counting", access: "user", success: { status: 200, schema: sessionSchema }, errors: [404] },
  { method: "delete", path: "/api/people-count/sessions/{id}", summary: "Delete a session and its snapshots", tag: "People counting", access: "user", success: noContent, errors: [404] },
  { method: "post", path: "/api/people-count/sessions/{id}/finish", summary: "Finish a session", tag: "People counting", access: "user", success: { status: 200, schema: sessionSchema }, errors: [404] },
  { method: "get", path: "/api/people-count/sessions/{id}/snapshots", summary: "The session's snapshots in time order", tag: "People counting", access: "user", success: { status: 200, schema: z.array(snapshotSchema) }, errors: [404] },
  { method: "patch", path: "/api/people-count/snapshots/{id}", summary: "Correct a snapshot's count (a number, or a range with its rounded midpoint)", tag: "People counting", access: "user", body: snapshotCorrectionSchema, success: { status: 200, schema: snapshotSchema }, errors: [400, 404] },
  { method: "get", path: "/api/people-count/snapshots/{id}/image", summary: "The counted frame", tag: "People counting", access: "user", success: image("Image"), errors: [404] },
  { method: "get", path: "/api/people-count/snapshots/{id}/thumbnail", summary: "The counted frame's thumbnail", tag: "People counting", access: "user", success: image("Thumbnail"), errors: [404] },

  { method: "get", path: "/api/luts", summary: "The user's LUTs, built-in presets first (without lutData)", tag: "LUTs", access: "user", success: { status: 200, schema: z.array(lutSummarySchema) } },
  { method: "post", path: "/api/luts", summary: "Upload a .cube LUT (validated on the server)", tag: "LUTs", access: "user", body: lutCreateSchema, success: { status: 201, schema: lutSummarySchema }, errors: [400, 413, 422] },
  { method: "get", path: "/api/luts/{id}", summary: "One LUT with its .cube text", tag: "LUTs", access: "user", success: { status: 200, schema: lutSchema }, errors: [404] },
  { method: "delete", path: "/api/luts/{id}", summary: "Delete an uploaded LUT (built-ins answer 403)", tag: "LUTs", access: "user", success: noContent, errors: [403, 404] },

  { method: "get", path: "/api/webhooks/settings", summary: "Webhook settings", tag: "Webhooks", access: "user", success: { status: 200, schema: webhookSettingsSchema } },
  { method: "post", path: "/api/webhooks/settings", summary: "Save webhook settings (turning it on clears an automatic switch-off); 422 when the URL would reach a non-public address or carries credentials", tag: "Webhooks", access: "user", body: webhookSettingsSchema, success: { status: 200, schema: webhookSettingsSchema }, errors: [400, 422] },
  { method: "post", path: "/api/webhooks/test", summary: "Send a signed webhook_test event to the saved URL now and report the receiver's answer", tag: "Webhooks", access: "user", success: { status: 200, schema: webhookTestResultSchema }, errors: [400] },
  { method: "get", path: "/api/webhooks/secret", summary: "The Standard Webhooks signing secret (whsec_…), created on first read", tag: "Webhooks", access: "user", success: { status: 200, schema: webhookSecretSchema } },
  { method: "post", path: "/api/webhooks/secret", summary: "Replace the signing secret", tag: "Webhooks", access: "user", success: { status: 200, schema: webhookSecretSchema } },
  { method: "get", path: "/api/webhooks/deliveries", summary: "The last 20 deliveries, and why the webhook was switched off if it was", tag: "Webhooks", access: "user", success: { status: 200, schema: webhookDeliveriesSchema } },
  { method: "get", path: "/api/alerts", summary: "Which alert channels this server can send on, and the user's contacts", tag: "Alerts", access: "user", success: { status: 200, schema: alertStatusSchema } },
  { method: "post", path: "/api/alerts/contacts", summary: "Save an e-mail address or phone number and send it a 6-digit code", tag: "Alerts", access: "user", body: contactStartSchema, success: { status: 200, schema: alertStatusSchema }, errors: [400, 429, 502, 503] },
  { method: "post", path: "/api/alerts/contacts/verify", summary: "Confirm a contact with its code", tag: "Alerts", access: "user", body: contactVerifySchema, success: { status: 200, schema: alertStatusSchema }, errors: [400, 409, 410] },
  { method: "delete", path: "/api/alerts/contacts/{channel}", summary: "Forget the e-mail (channel email) or phone (channel sms) contact", tag: "Alerts", access: "user", success: { status: 200, schema: alertStatusSchema }, errors: [404] },
  { method: "get", path: "/api/alerts/rules", summary: "Alert rules", tag: "Alerts", access: "user", success: { status: 200, schema: z.array(alertRuleSchema) } },
  { method: "post", path: "/api/alerts/rules", summary: "Add an alert rule", tag: "Alerts", access: "user", body: alertRuleInputSchema, success: { status: 201, schema: alertRuleSchema }, errors: [400, 409] },
  { method: "put", path: "/api/alerts/rules/{id}", summary: "Replace an alert rule", tag: "Alerts", access: "user", body: alertRuleInputSchema, success: { status: 200, schema: alertRuleSchema }, errors: [400, 404] },
  { method: "delete", path: "/api/alerts/rules/{id}", summary: "Delete an alert rule", tag: "Alerts", access: "user", success: noContent, errors: [404] },

  { method: "post", path: "/api/moondream/api-key", summary: "Save your own Moondream API key (stored encrypted, never returned)", tag: "AI", access: "user", body: apiKeySaveSchema, success: { status: 200, schema: apiKeyStatusSchema }, errors: [400] },
  { method: "delete", path: "/api/moondream/api-key", summary: "Forget your Moondream API key (calls use the shared free quota again)", tag: "AI", access: "user", success: { status: 200, schema: apiKeyStatusSchema } },
  { method: "get", path: "/api/moondream/free-calls", summary: "The shared key's free calls: used of the user's limit, and whether today's pool (SHARED_KEY_DAILY_CALLS) is spent", tag: "AI", access: "user", success: { status: 200, schema: freeCallsSchema } },
  { method: "post", path: "/api/moondream/caption", summary: "Caption a frame as plain prose (storyMode: a narrative caption); an empty caption means nothing new. With Accept: text/event-stream it streams `chunk` events (the raw text), then `done` {caption} (to show instead) or `problem`", tag: "AI", access: "user", body: captionRequestSchema, success: { status: 200, schema: captionResponseSchema }, errors: aiErrors },
  { method: "post", path: "/api/moondream/point", summary: "Points at each instance of an object", tag: "AI", access: "user", body: pointRequestSchema, success: { status: 200, schema: pointResponseSchema }, errors: aiErrors },
  { method: "post", path: "/api/moondream/detect", summary: "Bounding boxes of an object (Moondream gives no confidence; see confidenceThreshold)", tag: "AI", access: "user", body: detectRequestSchema, success: { status: 200, schema: detectResponseSchema }, errors: aiErrors },
  { method: "post", path: "/api/moondream/scoreboard", summary: "Read a sports scoreboard; a readable one becomes the live scoreboard", tag: "AI", access: "user", body: scoreboardRequestSchema, success: { status: 200, schema: scoreboardResponseSchema }, errors: aiErrors },
  { method: "post", path: "/api/people-count/count", summary: "Count people (by pointing, or a low–high estimate) and store the snapshot in the session", tag: "People counting", access: "user", body: countRequestSchema, success: { status: 200, schema: countResponseSchema }, errors: [...aiErrors, 404, 409] },
  { method: "post", path: "/api/camera-assistant/analyze", summary: "Advice on exposure, white balance, focus and lighting for a target look", tag: "AI", access: "user", body: assistantRequestSchema, success: { status: 200, schema: assistantResponseSchema }, errors: aiErrors },
  { method: "get", path: "/api/scoreboard/live.json", summary: "A user's live scoreboard (CORS *, no-store); an unknown user id gets the empty board, like an account without a reading", tag: "Live scoreboard", access: "public", query: liveQuerySchema, success: { status: 200, schema: liveScoreboardSchema }, errors: [400, 404] },
  { method: "get", path: "/api/scoreboard/live.html", summary: "The OBS browser-source overlay: transparent 1920×1080, updated live", tag: "Live scoreboard", access: "public", query: liveQuerySchema, success: { status: 200, schema: null, contentType: "text/html" }, errors: [400, 404] },
  { method: "get", path: "/api/scoreboard/events", summary: "Server-Sent Events: the live scoreboard on connect, then each new reading (CORS *)", tag: "Live scoreboard", access: "public", query: liveQuerySchema, success: { status: 200, schema: null, contentType: "text/event-stream", description: "`data:` lines carry the live scoreboard JSON; `id:` is its version" }, errors: [400, 404] },

  { method: "get", path: "/api/openapi.json", summary: "This document", tag: "Meta", access: "public", success: { status: 200, schema: null, contentType: "application/json" } },
];
