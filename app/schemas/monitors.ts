// Monitors (issue 18): analysis of an IP camera that the server runs with no browser open — auto-capture on
// detection, a people-count session, or a story — shared by the API, the server and the Automate tab.
import { z } from "zod";
import { dateTimeSchema, requiredText, uuidSchema } from "./common";

export const MONITOR_KINDS = ["auto_capture", "people_count", "story", "local_capture"] as const;
const KIND_ERROR = "kind must be auto_capture, people_count, story or local_capture";
export const monitorKindSchema = z.enum(MONITOR_KINDS, { error: KIND_ERROR });
export type MonitorKind = z.infer<typeof monitorKindSchema>;

export const MONITOR_STATES = ["running", "paused", "stopped", "error"] as const;
export type MonitorState = (typeof MONITOR_STATES)[number];

/** Seconds between ticks: at least 2 s (the studio's shortest AI interval), at most a day. */
export const MONITOR_MIN_INTERVAL_SECONDS = 2;
export const MONITOR_MAX_INTERVAL_SECONDS = 86_400;
/** The studio's auto-capture gap (spec §9: 5000 ms). */
export const DEFAULT_MIN_GAP_SECONDS = 5;
/** A user's monitors, all kinds together: each holds a camera stream and spends AI calls. */
export const MAX_MONITORS = 20;

const intervalSchema = z
  .number({ error: "Interval must be a number of seconds" })
  .int("Interval must be a whole number of seconds")
  .min(MONITOR_MIN_INTERVAL_SECONDS, `Interval must be at least ${MONITOR_MIN_INTERVAL_SECONDS} s`)
  .max(MONITOR_MAX_INTERVAL_SECONDS, "Interval must be at most a day");

export const autoCaptureSettingsSchema = z.object({
  query: requiredText("Query", 200).describe("the object box detection looks for, as in the studio's box query"),
  intervalSeconds: intervalSchema.default(5).describe("seconds between detections"),
  minGapSeconds: z
    .number({ error: "Minimum gap must be a number of seconds" })
    .int("Minimum gap must be a whole number of seconds")
    .min(0, "Minimum gap must be 0 or more")
    .max(MONITOR_MAX_INTERVAL_SECONDS, "Minimum gap must be at most a day")
    .default(DEFAULT_MIN_GAP_SECONDS)
    .describe("at least this long between saved photos, measured between capture starts"),
});
export const peopleCountSettingsSchema = z.object({
  intervalSeconds: intervalSchema.default(5).describe("seconds between counts (one snapshot each)"),
  useRange: z.boolean({ error: "useRange must be true or false" }).default(false).describe("ask for a low–high estimate instead of pointing at each person"),
});
export const storySettingsSchema = z.object({
  intervalSeconds: intervalSchema.default(10).describe("seconds between captions (one story photo each)"),
});

/**
 * What starts a local-vision capture: a new confirmed track of the class (appears), or its line or zone event
 * (enters a zone, crosses a line, loiters in a zone).
 */
export const LOCAL_TRIGGERS = ["appears", "enters", "crosses", "loiters"] as const;
export type LocalTrigger = (typeof LOCAL_TRIGGERS)[number];
export const LOCAL_TRIGGER_LABELS: Record<LocalTrigger, string> = { appears: "appears", enters: "enters a zone", crosses: "crosses a line", loiters: "loiters in a zone" };
/** The triggers that need one of the camera's lines (crosses) or zones (enters, loiters). */
export const triggerRegion = (trigger: LocalTrigger): "line" | "zone" | null => (trigger === "crosses" ? "line" : trigger === "appears" ? null : "zone");
/** A local-vision monitor's default gap: one photo a minute at most (the tracker sees every person; a busy door would otherwise fill the photos). */
export const DEFAULT_LOCAL_GAP_SECONDS = 60;

export const localCaptureSettingsSchema = z
  .object({
    label: requiredText("Class", 100).default("person").describe("the detector's class, e.g. person"),
    trigger: z.enum(LOCAL_TRIGGERS, { error: "Trigger must be appears, enters, crosses or loiters" }).default("appears"),
    regionId: uuidSchema.nullable().default(null).describe("the camera's line (crosses) or zone (enters, loiters)"),
    minGapSeconds: z
      .number({ error: "Minimum gap must be a number of seconds" })
      .int("Minimum gap must be a whole number of seconds")
      .min(0, "Minimum gap must be 0 or more")
      .max(MONITOR_MAX_INTERVAL_SECONDS, "Minimum gap must be at most a day")
      .default(DEFAULT_LOCAL_GAP_SECONDS)
      .describe("at least this long between saved photos, across processes"),
    describePrompt: z
      .string({ error: "Description prompt must be text" })
      .trim()
      .max(500, "Description prompt must be at most 500 characters")
      .nullable()
      .default(null)
      .transform((value) => value || null)
      .describe("asked of Moondream about the event's frame, once per photo (the only AI call); null: no description"),
  })
  .superRefine((value, ctx) => {
    const region = triggerRegion(value.trigger);
    if (region && !value.regionId) ctx.addIssue({ code: "custom", path: ["regionId"], message: `Choose a ${region} of this camera` });
  });
export type AutoCaptureSettings = z.infer<typeof autoCaptureSettingsSchema>;
export type PeopleCountSettings = z.infer<typeof peopleCountSettingsSchema>;
export type StorySettings = z.infer<typeof storySettingsSchema>;
export type LocalCaptureSettings = z.infer<typeof localCaptureSettingsSchema>;

/** Each kind's settings, for checking a stored or merged settings object. */
export const monitorSettingsSchemas = {
  auto_capture: autoCaptureSettingsSchema,
  people_count: peopleCountSettingsSchema,
  story: storySettingsSchema,
  local_capture: localCaptureSettingsSchema,
} as const;

/** Kinds run by the camera's local-vision pipeline, frame by frame: never ticked by the job queue. */
export const isLocalKind = (kind: MonitorKind): kind is "local_capture" => kind === "local_capture";

const nameSchema = requiredText("Name", 100);
const common = { cameraId: uuidSchema.describe("the user's IP camera"), name: nameSchema.optional().describe("defaults to the kind and the camera's name") };

export const monitorCreateSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("auto_capture"), ...common, settings: autoCaptureSettingsSchema }),
    z.object({ kind: z.literal("people_count"), ...common, settings: peopleCountSettingsSchema.default({ intervalSeconds: 5, useRange: false }) }),
    z.object({ kind: z.literal("story"), ...common, settings: storySettingsSchema.default({ intervalSeconds: 10 }) }),
    z.object({ kind: z.literal("local_capture"), ...common, settings: localCaptureSettingsSchema }),
  ],
  { error: KIND_ERROR },
);
export type MonitorCreateInput = z.infer<typeof monitorCreateSchema>;

/** PATCH: a new name and/or some settings (merged into the current ones, then checked for the monitor's kind). */
export const monitorUpdateSchema = z
  .object({
    name: nameSchema.optional(),
    settings: z
      .object({
        query: z.string().optional(),
        intervalSeconds: z.number().optional(),
        minGapSeconds: z.number().optional(),
        useRange: z.boolean().optional(),
        label: z.string().optional(),
        trigger: z.string().optional(),
        regionId: z.string().nullable().optional(),
        describePrompt: z.string().nullable().optional(),
      })
      .strict()
      .optional(),
  })
  .refine((value) => value.name !== undefined || value.settings !== undefined, { message: "Send a name or settings", path: ["name"] });
export type MonitorUpdateInput = z.infer<typeof monitorUpdateSchema>;

/** What the last tick found: boxes (auto-capture, with the photo when one was saved), a count, or a caption. */
export const monitorResultSchema = z.object({
  boxes: z.number().int().optional(),
  photoId: uuidSchema.nullable().optional(),
  count: z.number().int().optional(),
  countMin: z.number().int().nullable().optional(),
  countMax: z.number().int().nullable().optional(),
  caption: z.string().optional(),
  event: z.string().optional().describe('local_capture: what happened, e.g. "Way out: person crossed in"'),
  description: z.string().optional().describe("local_capture: Moondream's description saved with the photo"),
  skipped: z.string().optional().describe("local_capture: why no photo was saved (within the minimum gap)"),
});
export type MonitorResult = z.infer<typeof monitorResultSchema>;

export const monitorSchema = z.object({
  id: uuidSchema,
  cameraId: uuidSchema,
  cameraName: z.string(),
  kind: monitorKindSchema,
  name: z.string(),
  settings: z.object({
    query: z.string().optional(),
    intervalSeconds: z.number().int().optional().describe("every kind but local_capture, which runs on every frame of the camera's local vision"),
    minGapSeconds: z.number().int().optional(),
    useRange: z.boolean().optional(),
    label: z.string().optional(),
    trigger: z.enum(LOCAL_TRIGGERS).optional(),
    regionId: uuidSchema.nullable().optional(),
    describePrompt: z.string().nullable().optional(),
  }),
  state: z
    .enum(MONITOR_STATES)
    .describe("running; paused (by the user); stopped (the quota or key ran out: fix it, then resume); error (backing off after failures, retried by itself)"),
  statusMessage: z.string().nullable().describe("why it is stopped or in error, in words a person can act on"),
  failures: z.number().int().describe("failed ticks in a row"),
  lastRunAt: dateTimeSchema.nullable(),
  lastResult: monitorResultSchema.nullable(),
  lastError: z.string().nullable(),
  nextRunAt: dateTimeSchema.nullable(),
  recordingId: uuidSchema.nullable().describe("the story or people-count session it writes to"),
  createdAt: dateTimeSchema,
});
export type Monitor = z.infer<typeof monitorSchema>;

export const MONITOR_KIND_LABELS: Record<MonitorKind, string> = {
  auto_capture: "Auto-capture",
  people_count: "People count",
  story: "Story",
  local_capture: "Capture on local vision",
};
