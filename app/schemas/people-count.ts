// People-counting sessions and snapshots, and the rules for a count typed by a person ("5" or "8-12").
import { z } from "zod";
import { dateTimeSchema, imageDataUrlSchema, recordingCreateSchema, uuidSchema } from "./common";

/** Who counts a session's snapshots: Moondream (a call per snapshot) or the studio's on-device detector (no calls). */
export const COUNT_SOURCES = ["moondream", "local"] as const;
export const countSourceSchema = z.enum(COUNT_SOURCES, { error: `source must be one of: ${COUNT_SOURCES.join(", ")}` });
export type CountSource = z.infer<typeof countSourceSchema>;

export const sessionCreateSchema = recordingCreateSchema.extend({
  source: countSourceSchema
    .default("moondream")
    .describe('"moondream": snapshots come from POST /api/people-count/count; "local": the studio posts its on-device count to POST /api/people-count/sessions/{id}/snapshots'),
});

const count = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must be 0 or more`)
    .max(100_000);

export const snapshotCorrectionSchema = z
  .object({
    correctedCount: count("correctedCount"),
    correctedCountMin: count("correctedCountMin").nullish(),
    correctedCountMax: count("correctedCountMax").nullish(),
    sessionId: uuidSchema.optional(),
  })
  .refine((v) => (v.correctedCountMin == null) === (v.correctedCountMax == null), {
    message: "Send both correctedCountMin and correctedCountMax, or neither",
    path: ["correctedCountMin"],
  })
  .refine((v) => v.correctedCountMin == null || v.correctedCountMax == null || v.correctedCountMin <= v.correctedCountMax, {
    message: "correctedCountMin must not exceed correctedCountMax",
    path: ["correctedCountMin"],
  });
export type SnapshotCorrection = z.infer<typeof snapshotCorrectionSchema>;

export const sessionSchema = z.object({
  id: uuidSchema,
  cameraId: uuidSchema.nullable(),
  cameraName: z.string().nullable(),
  title: z.string(),
  createdAt: dateTimeSchema,
  finishedAt: dateTimeSchema.nullable(),
  isActive: z.boolean(),
  featuredPhotoId: uuidSchema.nullable().describe("the first snapshot's id; its image is at /api/people-count/snapshots/{id}/image"),
  averageCount: z.number().nullable(),
  minCount: z.number().int().nullable(),
  maxCount: z.number().int().nullable(),
  snapshotCount: z.number().int(),
  source: countSourceSchema,
});
export type CountSession = z.infer<typeof sessionSchema>;

export const snapshotSchema = z.object({
  id: uuidSchema,
  sessionId: uuidSchema,
  capturedAt: dateTimeSchema,
  aiCount: z.number().int(),
  aiCountMin: z.number().int().nullable(),
  aiCountMax: z.number().int().nullable(),
  correctedCount: z.number().int().nullable(),
  correctedCountMin: z.number().int().nullable(),
  correctedCountMax: z.number().int().nullable(),
  imageUrl: z.string(),
  thumbnailUrl: z.string(),
});
export type CountSnapshot = z.infer<typeof snapshotSchema>;

/** A snapshot of a local session: the frame and the people the studio's on-device detector counted in it. */
export const localSnapshotSchema = z.object({
  imageData: imageDataUrlSchema,
  count: count("count").describe("confirmed people in view when the frame was taken"),
});
export type LocalSnapshot = z.infer<typeof localSnapshotSchema>;
export const addedSnapshotSchema = z.object({ snapshot: snapshotSchema, session: sessionSchema });

export type ParsedCount = { count: number; min: number | null; max: number | null };

/** "5" → 5; "8-12" (either order) → min 8, max 12, count the rounded midpoint; anything else → null. */
export function parseCountInput(text: string): ParsedCount | null {
  const trimmed = text.trim();
  const single = /^(\d+)$/.exec(trimmed);
  if (single) return { count: Number(single[1]), min: null, max: null };
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(trimmed);
  if (!range) return null;
  const a = Number(range[1]);
  const b = Number(range[2]);
  const min = Math.min(a, b);
  const max = Math.max(a, b);
  return { count: Math.round((min + max) / 2), min, max };
}

export function defaultSessionTitle(date = new Date()): string {
  return `People Count - ${date.toLocaleString()}`;
}
