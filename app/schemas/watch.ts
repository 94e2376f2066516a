// "Watch with local vision" (issue 30): per IP camera, the server runs the local detector, the tracker and the
// camera's lines and zones all day, with no browser open. The setting a person changes, and what the process running
// the pipeline reports about it (the camera card's status line and /metrics read the same figures).
import { z } from "zod";
import { dateTimeSchema } from "./common";

export const WATCH_FPS = { min: 1, max: 15, default: 5 } as const;
export const WATCH_WIDTH = { min: 320, max: 1280, default: 640 } as const;
export const MAX_WATCH_LABELS = 20;
/** What a camera watches for until someone chooses: people, what counting is mostly about. */
export const DEFAULT_WATCH_LABELS = ["person"] as const;

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
  status: z.enum(["off", "waiting", ...PIPELINE_STATES]).describe("off: not watched; waiting: on, no process has started it yet"),
  stats: pipelineStatsSchema.nullable().describe("the running pipeline's latest figures (null when off or waiting)"),
  statsAt: dateTimeSchema.nullable(),
  lastEventAt: dateTimeSchema.nullable().describe("the latest line or zone event the server's pipeline recorded"),
});
export type Watch = z.infer<typeof watchSchema>;
