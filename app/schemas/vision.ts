// The AI calls (Moondream through the server), the user's own API key, and the public live scoreboard.
import { z } from "zod";
import { dateTimeSchema, imageDataUrlSchema, requiredText, uuidSchema } from "./common";
import { sessionSchema, snapshotSchema } from "./people-count";

/** Calls a user without their own key may make on the operator's shared key, in total. */
export const FREE_SHARED_CALLS = 100;
/** Moondream's own limit on an image. */
export const MAX_FRAME_BYTES = 10 * 1024 * 1024;

export const INVALID_API_KEY = "Please enter a valid API key";
export const SHARED_QUOTA_USED_UP = `Your ${FREE_SHARED_CALLS} free calls are used up. Add your own free Moondream API key in AI settings to keep going.`;
export const NO_API_KEY = "AI analysis needs a Moondream API key. Create a free key at moondream.ai (Cloud → API keys), then paste it under AI settings → API key.";
export const RATE_LIMITED = "Moondream is rate-limiting this key; slow the interval";
/** The operator's daily pool on the shared key (SHARED_KEY_DAILY_CALLS) is spent; it refills at 00:00 UTC. */
export const FREE_POOL_USED_UP =
  "Today's free AI calls on the studio's shared key are used up (they refill at 00:00 UTC). Add your own free Moondream API key in AI settings to keep going: create one at moondream.ai (Cloud → API keys).";
/** Where a free Moondream key is created; the studio's toasts link to it. */
export const MOONDREAM_KEYS_URL = "https://moondream.ai";

/** A call refused because the key's queue here is full (429 with Retry-After); `source` says whose key. */
export function keyBusy(source: "shared" | "user" | "none", seconds: number): string {
  const who = source === "shared" ? "The shared key" : source === "user" ? "Your Moondream key" : "The Moondream server";
  return `${who} is busy; try again in ${seconds} s`;
}

/**
 * Problem `type`s of the AI failures a person has to act on (the studio shows each once, not per
 * frame); every other AI failure is `about:blank` and only logged by the studio.
 */
export const VISION_PROBLEM = {
  noApiKey: "urn:framewise:problem:vision-no-api-key",
  freeCallsUsedUp: "urn:framewise:problem:vision-free-calls-used-up",
  keyRejected: "urn:framewise:problem:vision-key-rejected",
  rateLimited: "urn:framewise:problem:vision-rate-limited",
  /** This server's pace queue for the key is full, or a loop call would have had to queue (429). */
  busy: "urn:framewise:problem:vision-busy",
  freePoolUsedUp: "urn:framewise:problem:vision-free-pool-used-up",
  /** The Moondream server has no segmentation (an older Moondream Station): 501. */
  segmentationUnsupported: "urn:framewise:problem:vision-segmentation-unsupported",
} as const;

export const SEGMENTATION_UNSUPPORTED =
  "This Moondream Station does not support segmentation (it needs Moondream 3 with the segmentation weights). Update Moondream Station, or use the Moondream cloud.";

/**
 * Who asked for a call. A person (a button, the first call after switching a feature on) waits its turn;
 * a repeating loop's call is refused at once (429 busy) when it would have to wait, and the loop skips
 * that tick, so loops never delay what a person asked for.
 */
export const callPrioritySchema = z
  .enum(["interactive", "loop"], { error: "priority must be interactive or loop" })
  .default("interactive")
  .describe("interactive: a person asked for it, waits its turn. loop: a repeating call, refused with 429 at once instead of waiting");
export type CallPriority = z.infer<typeof callPrioritySchema>;

/** GET /api/moondream/free-calls: what the studio shows before a call is made. */
export const freeCallsSchema = z.object({
  hasMoondreamApiKey: z.boolean(),
  used: z.number().int().describe("the user's free calls used on the shared key"),
  limit: z.number().int().describe(`free calls per user (${FREE_SHARED_CALLS})`),
  sharedKey: z.boolean().describe("a shared key is configured (else calls need the user's own key, or go key-less)"),
  poolExhausted: z.boolean().describe("the shared key's daily pool is spent for today (UTC): key-less calls are refused until 00:00 UTC"),
});
export type FreeCalls = z.infer<typeof freeCallsSchema>;

export const apiKeySaveSchema = z.object({
  apiKey: z
    .string({ error: INVALID_API_KEY })
    .trim()
    .min(1, INVALID_API_KEY)
    .max(1000, INVALID_API_KEY)
    // Keys are printable ASCII without spaces; anything else could never authenticate (and must not reach a header).
    .regex(/^[\x21-\x7e]+$/, INVALID_API_KEY),
});
export type ApiKeySave = z.infer<typeof apiKeySaveSchema>;

export const apiKeyStatusSchema = z.object({ hasMoondreamApiKey: z.boolean() });

export const sportSchema = z.enum(["soccer", "football", "basketball"], { error: "sport must be soccer, football or basketball" });
export type Sport = z.infer<typeof sportSchema>;

const objectText = requiredText("object", 200);

export const captionRequestSchema = z.object({
  imageData: imageDataUrlSchema,
  storyMode: z.boolean({ error: "storyMode must be true or false" }).default(false).describe("ask for a richer, narrative caption for a story"),
  priority: callPrioritySchema,
});
export type CaptionRequest = z.infer<typeof captionRequestSchema>;
/** The longest caption the API returns, ellipsis included (why 500: server/vision/parsers/caption.ts). */
export const CAPTION_MAX_LENGTH = 500;
export const captionResponseSchema = z.object({
  caption: z
    .string()
    .max(CAPTION_MAX_LENGTH)
    .describe(`plain prose of at most ${CAPTION_MAX_LENGTH} characters; "" when the model answered nothing usable (empty, a refusal): nothing new to show or record`),
});

export const pointRequestSchema = z.object({ imageData: imageDataUrlSchema, object: objectText, priority: callPrioritySchema });
export type PointRequest = z.infer<typeof pointRequestSchema>;
export const pointSchema = z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) }).describe("fractions of the frame, origin top-left");
export type Point = z.infer<typeof pointSchema>;
export const pointResponseSchema = z.object({ points: z.array(pointSchema) });

export const detectRequestSchema = z.object({
  imageData: imageDataUrlSchema,
  object: objectText,
  maxObjects: z
    .number({ error: "maxObjects must be a number" })
    .int("maxObjects must be a whole number")
    .min(1, "maxObjects must be at least 1")
    .max(50, "maxObjects must be at most 50")
    .default(10),
  confidenceThreshold: z
    .number({ error: "confidenceThreshold must be a number" })
    .min(0, "confidenceThreshold must be between 0 and 1")
    .max(1, "confidenceThreshold must be between 0 and 1")
    .default(0.3)
    .describe(
      "Moondream returns no confidence score: every box it returns is one it decided on, so boxes count as confidence 1 and any threshold from 0 to 1 keeps them all. Accepted so clients written for scoring detectors work unchanged; use maxObjects and a more specific object phrase to cut false positives.",
    ),
  priority: callPrioritySchema,
});
export type DetectRequest = z.infer<typeof detectRequestSchema>;
export const boxSchema = z
  .object({ x_min: z.number().min(0).max(1), y_min: z.number().min(0).max(1), x_max: z.number().min(0).max(1), y_max: z.number().min(0).max(1) })
  .describe("fractions of the frame, origin top-left");
/**
 * The product's one box: corners as fractions 0–1 of the frame. Moondream's answers, the local detector's output,
 * tracks, events and overlays all use it; a model's own shape is turned into it where the model's output is read
 * (server/vision parsing, the detector worker's decoder), and a local-vision event's wire shape at the studio's edge.
 */
export type Box = z.infer<typeof boxSchema>;
export const detectResponseSchema = z.object({ boxes: z.array(boxSchema) });

/** The longest answer POST /api/moondream/query returns (a photo's or event's description holds as much). */
export const QUERY_ANSWER_MAX_LENGTH = 1000;
export const queryRequestSchema = z.object({
  imageData: imageDataUrlSchema,
  question: requiredText("question", 500),
  priority: callPrioritySchema,
});
export type QueryRequest = z.infer<typeof queryRequestSchema>;
export const queryResponseSchema = z.object({
  answer: z.string().max(QUERY_ANSWER_MAX_LENGTH).describe(`Moondream's answer, trimmed to at most ${QUERY_ANSWER_MAX_LENGTH} characters`),
});

export const scoreboardRequestSchema = z.object({ imageData: imageDataUrlSchema, sport: sportSchema.default("football"), priority: callPrioritySchema });
export type ScoreboardRequest = z.infer<typeof scoreboardRequestSchema>;
export const scoreboardSchema = z.object({
  homeTeam: z.string().nullable(),
  homeScore: z.number().int().nullable(),
  awayTeam: z.string().nullable(),
  awayScore: z.number().int().nullable(),
  period: z.string().nullable(),
  timeRemaining: z.string().nullable(),
});
export type Scoreboard = z.infer<typeof scoreboardSchema>;
export const scoreboardResponseSchema = z.object({ scoreboard: scoreboardSchema });

/** The public feed: the last reading, flat so overlay tools can bind fields directly. */
export const liveScoreboardSchema = scoreboardSchema.extend({
  sport: sportSchema.nullable(),
  periodLabel: z.string().describe('period and clock as overlays show them ("Q4 2:31", "2nd Half", or "LIVE")'),
  updatedAt: z.string().nullable(),
  version: z.number().int().describe("grows with every reading; 0 before the first"),
});
export type LiveScoreboard = z.infer<typeof liveScoreboardSchema>;
export const liveQuerySchema = z.object({ userId: z.string({ error: "userId is required" }).describe("the streamer's user id") });

export const countRequestSchema = z.object({
  imageData: imageDataUrlSchema,
  sessionId: uuidSchema.nullish().describe("the active counting session to store the snapshot in"),
  useRange: z.boolean({ error: "useRange must be true or false" }).default(false).describe("ask for a low–high estimate instead of pointing at each person"),
  priority: callPrioritySchema,
});
export type CountRequest = z.infer<typeof countRequestSchema>;
export const countResponseSchema = z.object({
  count: z.number().int(),
  countMin: z.number().int().nullable(),
  countMax: z.number().int().nullable(),
  snapshot: snapshotSchema.nullable(),
  session: sessionSchema.nullable(),
});
export type CountResponse = z.infer<typeof countResponseSchema>;

export const assistantRequestSchema = z.object({
  imageBase64: z.string({ error: "imageBase64 is required" }).min(1, "imageBase64 is required").describe("the snapshot as raw base64 (a data URL is accepted too)"),
  cameraType: z.string().trim().max(100, "cameraType must be at most 100 characters").default(""),
  targetLook: requiredText("targetLook", 200).describe('e.g. "Natural", "Cinematic" or the custom text'),
  intent: z.string().trim().max(500, "intent must be at most 500 characters").default(""),
  priority: callPrioritySchema,
});
export type AssistantRequest = z.infer<typeof assistantRequestSchema>;
export const adviceSchema = z.union([z.string(), z.object({ tip: z.string(), detail: z.string() })]).nullable();
export type Advice = z.infer<typeof adviceSchema>;
export const ADVICE_SECTIONS = ["exposure", "whiteBalance", "focus", "lighting", "overall"] as const;
export type AdviceSection = (typeof ADVICE_SECTIONS)[number];
export const recommendationsSchema = z.object({
  exposure: adviceSchema,
  whiteBalance: adviceSchema,
  focus: adviceSchema,
  lighting: adviceSchema,
  overall: adviceSchema,
});
export type Recommendations = z.infer<typeof recommendationsSchema>;
export const assistantResponseSchema = z.object({ recommendations: recommendationsSchema });

/**
 * What a Moondream call was spent on (vision_call_hours.feature): each studio feature, the event descriptions
 * of local vision, and the server's monitors. Counted once per call made and kept (a failed call is given back).
 */
export const AI_FEATURES = ["captions", "story", "points", "detection", "people_count", "scoreboard", "shot_advice", "event_description", "monitors", "segmentation"] as const;
export const aiFeatureSchema = z.enum(AI_FEATURES);
export type AiFeature = z.infer<typeof aiFeatureSchema>;

/** GET /api/moondream/usage: the user's Moondream calls over the last 24 hours, per UTC hour and feature. */
export const visionUsageSchema = z.object({
  currentHour: dateTimeSchema.describe("the start of this UTC hour (ISO 8601); `hours` holds it when calls were made in it"),
  hours: z
    .array(z.object({ hour: dateTimeSchema.describe("the hour's start (UTC, ISO 8601)"), feature: aiFeatureSchema, calls: z.number().int() }))
    .describe("the last 24 hours (this one included), oldest first; hours and features without calls left out"),
  totals: z
    .array(z.object({ feature: aiFeatureSchema, calls: z.number().int() }))
    .describe("calls per feature over those hours, in AI_FEATURES order; features without calls left out"),
});
export type VisionUsage = z.infer<typeof visionUsageSchema>;
