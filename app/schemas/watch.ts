// "Watch with local vision" (issue 30): per IP camera, the server runs the local detector, the tracker and the
// camera's lines and zones all day, with no browser open. The setting a person changes, and what the process running
// the pipeline reports about it (the camera card's status line and /metrics read the same figures).
import { z } from "zod";
import { dateTimeSchema, uuidSchema } from "./common";
import { PTZ_SPEED_MAX, PTZ_SPEED_MIN, ptzPresetNumberSchema } from "./ptz";

export const WATCH_FPS = { min: 1, max: 15, default: 5 } as const;
export const WATCH_WIDTH = { min: 320, max: 1280, default: 640 } as const;
export const MAX_WATCH_LABELS = 20;
/** What a camera watches for until someone chooses: people, what counting is mostly about. */
export const DEFAULT_WATCH_LABELS = ["person"] as const;

/** The limits of the follow options (the studio's Follow dialog uses the same). */
export const FOLLOW_LIMITS = { targetHeight: { min: 0.1, max: 0.9 }, lostSeconds: { min: 1, max: 120 } } as const;

/**
 * "Follow" on a watched PTZ IP camera (issue 30): the server turns the camera after a tracked subject of one class,
 * from its own pipeline's tracks, with no browser open (server/local-vision/pipeline/follow.ts).
 */
export const followInputSchema = z.object({
  enabled: z.boolean({ error: "Say whether the server follows a subject (true or false)" }),
  label: z.string({ error: "Choose what to follow" }).trim().min(1, "Choose what to follow").max(100).default("person"),
  startZoneId: uuidSchema.nullable().default(null).describe("null: follow at once; a zone: only a subject that entered it starts the follow"),
  returnPreset: ptzPresetNumberSchema.nullable().default(null).describe("the camera preset recalled when the subject is lost; null: just stop"),
  lostSeconds: z
    .number({ error: "Lost seconds must be a number" })
    .min(FOLLOW_LIMITS.lostSeconds.min, `At least ${FOLLOW_LIMITS.lostSeconds.min} second`)
    .max(FOLLOW_LIMITS.lostSeconds.max, `At most ${FOLLOW_LIMITS.lostSeconds.max} seconds`)
    .default(5),
  zoom: z.boolean({ error: "Say whether to zoom (true or false)" }).default(false),
  targetHeight: z
    .number({ error: "The target height must be a number" })
    .min(FOLLOW_LIMITS.targetHeight.min, `At least ${FOLLOW_LIMITS.targetHeight.min} of the picture`)
    .max(FOLLOW_LIMITS.targetHeight.max, `At most ${FOLLOW_LIMITS.targetHeight.max} of the picture`)
    .default(0.4),
  maxSpeed: z
    .number({ error: "The maximum speed must be a number" })
    .int("The maximum speed must be a whole number")
    .min(PTZ_SPEED_MIN, `At least ${PTZ_SPEED_MIN}`)
    .max(PTZ_SPEED_MAX, `At most ${PTZ_SPEED_MAX}`)
    .default(12),
});
export type FollowInput = z.infer<typeof followInputSchema>;

export const DEFAULT_FOLLOW: FollowInput = followInputSchema.parse({ enabled: false });

export const followSchema = followInputSchema.extend({
  pausedAt: dateTimeSchema.nullable().describe("when a manual PTZ command on this camera paused the follow (switching it on again resumes); null: not paused"),
});
export type Follow = z.infer<typeof followSchema>;

export const watchInputSchema = z.object({
  enabled: z.boolean({ error: "Say whether the server watches this camera (true or false)" }),
  labels: z
    .array(z.string().trim().min(1).max(100), { error: "Choose what to watch for" })
    .min(1, "Choose at least one kind of object to watch for")
    .max(MAX_WATCH_LABELS, `Choose at most ${MAX_WATCH_LABELS} kinds of object`),
  fps: z
    .number({ error: "Frames per second must be a number" })
    .int("Frames per second must be a whole number")
    .min(WATCH_FPS.min, `At least ${WATCH_FPS.min} frame per second`)
    .max(WATCH_FPS.max, `At most ${WATCH_FPS.max} frames per second`),
  width: z
    .number({ error: "The detection width must be a number" })
    .int("The detection width must be a whole number of pixels")
    .min(WATCH_WIDTH.min, `At least ${WATCH_WIDTH.min} pixels wide`)
    .max(WATCH_WIDTH.max, `At most ${WATCH_WIDTH.max} pixels wide`),
  follow: followInputSchema.optional().describe("PTZ follow (a camera with PTZ only); left out: unchanged"),
});
export type WatchInput = z.infer<typeof watchInputSchema>;

export const PIPELINE_STATES = ["starting", "running", "stalled"] as const;

export const pipelineStatsSchema = z.object({
  state: z.enum(PIPELINE_STATES).describe("starting: no frame yet; running; stalled: no frame for a while (the camera is failing)"),
  reason: z.string().nullable().describe("why it is stalled, when known (the stream's offline reason)"),
  decodeFps: z.number().describe("frames decoded per second, lately"),
  detectFps: z.number().describe("frames the detector ran on per second, lately (motion skips the rest)"),
  droppedFrames: z.number().int().describe("frames decoded while the detector was behind, dropped rather than queued (since the pipeline started)"),
  detectorMs: z.number().describe("the detector's mean time per frame, lately"),
  cpuPercent: z.number().describe("the pipeline's CPU (decoder and detector), in % of one core, lately"),
  tracks: z.number().int().describe("objects tracked now"),
});
export type PipelineStats = z.infer<typeof pipelineStatsSchema>;

export const watchSchema = watchInputSchema.extend({
  follow: followSchema,
  status: z.enum(["off", "waiting", ...PIPELINE_STATES]).describe("off: not watched; waiting: on, no process has started it yet"),
  stats: pipelineStatsSchema.nullable().describe("the running pipeline's latest figures (null when off or waiting)"),
  statsAt: dateTimeSchema.nullable(),
  lastEventAt: dateTimeSchema.nullable().describe("the latest line or zone event the server's pipeline recorded"),
});
export type Watch = z.infer<typeof watchSchema>;
