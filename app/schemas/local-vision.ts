// Local vision's zones, lines, events and counts as the API speaks them. The shapes match the studio's pure
// modules (app/studio/local-vision: ZoneDefinition, LineDefinition and their events), with names and ids added;
// coordinates are normalised to the picture (0–1, y down), so they hold at any resolution.
import { z } from "zod";
import { HEAT_CELLS, HEAT_COLS, HEAT_ROWS } from "../studio/local-vision/heat-grid";
import { zoneShapeProblem } from "../studio/local-vision/region-geometry";
import { dateTimeSchema, requiredText, uuidSchema } from "./common";

export const ANCHORS = ["bottom-centre", "centre", "top-centre", "left-centre", "right-centre"] as const;
/** Events in one POST /api/cameras/{id}/vision-events. */
export const MAX_VISION_EVENTS = 100;
/** Zones and lines per camera, each. */
export const MAX_REGIONS_PER_CAMERA = 20;
/** The longest span one counts read or CSV covers. */
export const MAX_COUNTS_DAYS = 31;
/** The longest span one heatmap read covers. */
export const MAX_HEATMAP_DAYS = 366;
/** A cell's passes and seconds in one batch's grid (one hour at most): far above any real camera, far below overflow. */
export const MAX_HEAT_WALK = 1_000_000;
export const MAX_HEAT_STAY = 2_000_000;

const coordinate = (axis: string) =>
  z
    .number({ error: `${axis} must be a number` })
    .min(0, `${axis} must be between 0 and 1`)
    .max(1, `${axis} must be between 0 and 1`);
export const pointSchema = z.object({ x: coordinate("x"), y: coordinate("y") });
export type VisionPoint = z.infer<typeof pointSchema>;

const labelSchema = z.string().trim().min(1, "a class name is required").max(50, "a class name must be at most 50 characters");
const labelsSchema = z.array(labelSchema).max(80, "at most 80 classes").default([]).describe("classes counted; empty: every class");
const anchorSchema = z.enum(ANCHORS, { error: `anchor must be one of ${ANCHORS.join(", ")}` }).default("bottom-centre");
/** What a line or zone does when it fires, besides counting and the webhook/alerts. */
const eventActions = {
  capturePhoto: z.boolean({ error: "capturePhoto must be true or false" }).default(false).describe("save a photo of the event's frame, with the event's box"),
  describePrompt: z
    .string({ error: "describePrompt must be text" })
    .trim()
    .max(500, "describePrompt must be at most 500 characters")
    .nullish()
    .transform((prompt) => prompt || null)
    .describe('"describe with Moondream": the question asked about the event\'s frame (one call per event); null or empty: no call'),
};
const eventActionsOut = { capturePhoto: z.boolean(), describePrompt: z.string().nullable() };
/** The question a new rule's "describe with Moondream" starts with. */
export const DEFAULT_DESCRIBE_PROMPT = "Describe the person or object in the box.";

const framesSchema = (what: string, byDefault: number) =>
  z.number().int(`${what} must be a whole number`).min(1, `${what} must be at least 1`).max(30, `${what} must be at most 30`).default(byDefault);

export const zoneInputSchema = z.object({
  name: requiredText("Name", 100),
  polygon: z
    .array(pointSchema, { error: "polygon must be a list of points" })
    .min(3, "A zone needs at least 3 points")
    .max(32, "A zone can have at most 32 points")
    .superRefine((points, ctx) => {
      // Fewer points already have their message; the studio checks the same before sending.
      const problem = points.length >= 3 ? zoneShapeProblem(points) : null;
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  labels: labelsSchema,
  anchor: anchorSchema,
  inertia: framesSchema("inertia", 3).describe("frames in a row inside to enter, outside to exit"),
  loiterSeconds: z
    .number()
    .int("loiterSeconds must be a whole number")
    .min(0, "loiterSeconds must be 0 or more")
    .max(24 * 3600, "loiterSeconds must be at most a day")
    .default(0)
    .describe("seconds inside before zone.loitering; 0: never"),
  ...eventActions,
});
export type ZoneInput = z.infer<typeof zoneInputSchema>;

export const lineInputSchema = z
  .object({
    name: requiredText("Name", 100),
    a: pointSchema,
    b: pointSchema,
    labels: labelsSchema,
    anchor: anchorSchema,
    // 1: a crossing counts on the first frame clear past the line (app/studio/local-vision/lines.ts, issue 29).
    settleFrames: framesSchema("settleFrames", 1).describe("frames past the line before a crossing counts; a track that ends past it counts at once"),
    ...eventActions,
  })
  .refine((line) => Math.hypot(line.a.x - line.b.x, line.a.y - line.b.y) >= 0.01, {
    path: ["b"],
    message: "A line's two ends must be apart",
  })
  .describe("a directed segment: crossing to the right of a → b as seen on screen is `in`");
export type LineInput = z.infer<typeof lineInputSchema>;

export const zoneSchema = z.object({
  id: uuidSchema,
  cameraId: uuidSchema,
  name: z.string(),
  polygon: z.array(pointSchema),
  labels: z.array(z.string()),
  anchor: z.enum(ANCHORS),
  inertia: z.number().int(),
  loiterSeconds: z.number().int(),
  ...eventActionsOut,
  createdAt: dateTimeSchema,
});
export type Zone = z.infer<typeof zoneSchema>;

export const lineSchema = z.object({
  id: uuidSchema,
  cameraId: uuidSchema,
  name: z.string(),
  a: pointSchema,
  b: pointSchema,
  labels: z.array(z.string()),
  anchor: z.enum(ANCHORS),
  settleFrames: z.number().int(),
  ...eventActionsOut,
  createdAt: dateTimeSchema,
});
export type Line = z.infer<typeof lineSchema>;

/**
 * A local-vision event's box on the wire (left, top, width, height as fractions of the frame): the shape the API has
 * always taken and webhook consumers read. Inside the product a box is vision.ts `Box` (corners); the studio turns
 * one into this as it posts an event (app/studio/local-vision/event-reporter.ts).
 */
export const visionBoxSchema = z.object({ x: coordinate("x"), y: coordinate("y"), w: coordinate("w"), h: coordinate("h") });
export type VisionBox = z.infer<typeof visionBoxSchema>;

const eventBase = {
  trackId: z.number().int().min(0),
  label: labelSchema,
  at: z.number({ error: "at must be a time in milliseconds since 1970" }).int().positive().describe("when it happened, Unix milliseconds"),
  box: visionBoxSchema.describe("the track's box in that frame"),
  photoId: uuidSchema.optional().describe("the photo the studio saved of the event (POST /api/photos first); the webhook and alert link to it"),
  description: z
    .string()
    .trim()
    .max(1000, "description must be at most 1000 characters")
    .optional()
    .describe("Moondream's description of the event's frame, when the rule asked for one"),
};
const dwellSeconds = z
  .number()
  .min(0)
  .max(7 * 24 * 3600);

/** One event as the studio's tracker reports it (app/studio/local-vision/events.ts, `at` in Unix milliseconds). */
export const visionEventSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("line.crossed"), lineId: uuidSchema, direction: z.enum(["in", "out"]), ...eventBase }),
    z.object({ type: z.literal("zone.entered"), zoneId: uuidSchema, ...eventBase }),
    z.object({ type: z.literal("zone.exited"), zoneId: uuidSchema, dwellSeconds, ...eventBase }),
    z.object({ type: z.literal("zone.loitering"), zoneId: uuidSchema, dwellSeconds, ...eventBase }),
  ],
  { error: "type must be line.crossed, zone.entered, zone.exited or zone.loitering" },
);
export type VisionEvent = z.infer<typeof visionEventSchema>;

/** Where tracks walked and stayed on the camera during part of one UTC hour (app/studio/local-vision/heat-grid.ts). */
export const visionHeatSchema = z.object({
  hour: z
    .number({ error: "hour must be a time in milliseconds since 1970" })
    .int("hour must be the start of an hour in milliseconds since 1970")
    .positive("hour must be the start of an hour in milliseconds since 1970")
    .refine((hour) => hour % 3_600_000 === 0, "hour must be the start of an hour in milliseconds since 1970")
    .describe("the start of the UTC hour the grid covers, Unix milliseconds, within the last 24 hours"),
  cols: z.literal(HEAT_COLS, `cols must be ${HEAT_COLS}`),
  rows: z.literal(HEAT_ROWS, `rows must be ${HEAT_ROWS}`),
  walk: z
    .array(
      z
        .number({ error: "a cell's walk must be a number" })
        .int("a cell's walk must be a whole number")
        .min(0, "a cell's walk cannot be negative")
        .max(MAX_HEAT_WALK, `a cell's walk must be at most ${MAX_HEAT_WALK}`),
    )
    .length(HEAT_CELLS, `walk must have ${HEAT_CELLS} cells`)
    .describe("passes: times a track entered each cell, row by row from the top left"),
  stay: z
    .array(
      z.number({ error: "a cell's stay must be a number" }).min(0, "a cell's stay cannot be negative").max(MAX_HEAT_STAY, `a cell's stay must be at most ${MAX_HEAT_STAY} seconds`),
    )
    .length(HEAT_CELLS, `stay must have ${HEAT_CELLS} cells`)
    .describe("seconds tracks spent in each cell"),
});
export type VisionHeat = z.infer<typeof visionHeatSchema>;

export const visionEventsInputSchema = z
  .object({
    batchId: uuidSchema
      .optional()
      .describe("the batch's id, chosen by the sender: a batch sent again with the same id (its answer was lost) is counted and published once; ids are kept a day"),
    events: z.array(visionEventSchema).max(MAX_VISION_EVENTS, `Send at most ${MAX_VISION_EVENTS} events at once`).describe("at least one unless the batch carries heat"),
    heat: visionHeatSchema.optional().describe("the camera's heat grid since the last batch that carried one, added to its hour with the events"),
  })
  .refine((batch) => batch.events.length > 0 || batch.heat !== undefined, { message: "Send at least one event", path: ["events"] });

export const visionEventsResultSchema = z.object({
  accepted: z.number().int().describe("events counted and published"),
  ignored: z.number().int().describe("events for a line or zone that is not on this camera (deleted meanwhile)"),
  duplicate: z.boolean().describe("this batchId was received before: nothing was counted or published again"),
});

export const COUNT_KINDS = ["in", "out", "entered", "exited", "loitering"] as const;

export const countsQuerySchema = z.object({
  from: dateTimeSchema.optional().describe("start (inclusive); default: 24 hours before `to`"),
  to: dateTimeSchema.optional().describe("end (exclusive); default: now"),
  lineId: uuidSchema.optional(),
  zoneId: uuidSchema.optional(),
});
export type CountsQuery = z.infer<typeof countsQuerySchema>;

export const countRowSchema = z.object({
  minute: dateTimeSchema,
  lineId: uuidSchema.nullable(),
  zoneId: uuidSchema.nullable(),
  label: z.string(),
  kind: z.enum(COUNT_KINDS).describe("lines: in/out; zones: entered/exited/loitering"),
  count: z.number().int(),
});
export type CountRow = z.infer<typeof countRowSchema>;

export const heatmapQuerySchema = z.object({
  from: dateTimeSchema.optional().describe("start (inclusive: the hour it falls in counts); default: 7 days before `to`"),
  to: dateTimeSchema.optional().describe("end (exclusive); default: now"),
});
export type HeatmapQuery = z.infer<typeof heatmapQuerySchema>;

export const heatmapSchema = z.object({
  cols: z.number().int(),
  rows: z.number().int(),
  walk: z.array(z.number()).describe("passes into each cell over the period, row by row from the top left (cols × rows)"),
  stay: z.array(z.number()).describe("seconds spent in each cell over the period"),
  from: dateTimeSchema,
  to: dateTimeSchema,
  hours: z.number().int().describe("hours of the period with any heat recorded"),
});
export type Heatmap = z.infer<typeof heatmapSchema>;

export const countsSchema = z.object({ from: dateTimeSchema, to: dateTimeSchema, rows: z.array(countRowSchema).describe("per minute, oldest first") });
export type Counts = z.infer<typeof countsSchema>;
