// Photos: what the studio saves, and the compact shape lists return (URLs, never image bytes).
import { z } from "zod";
import { booleanQuerySchema, dateTimeSchema, imageDataUrlSchema, pageParamsSchema, uuidSchema } from "./common";
import { boxSchema } from "./vision";

export const photoEditKindSchema = z.enum(["cutout", "blur", "crop"], { error: "kind must be cutout, blur or crop" });
export type PhotoEditKind = z.infer<typeof photoEditKindSchema>;

export const captureModeSchema = z.enum(["single", "burst", "timelapse"], { error: "captureMode must be single, burst or timelapse" });
export type CaptureMode = z.infer<typeof captureModeSchema>;

/** A detected box as a photo keeps it: the detection's box (corners as fractions 0–1 of the frame) and a label. */
export const detectionBoxSchema = boxSchema.extend({ label: z.string().max(200).optional() });
export type DetectionBox = z.infer<typeof detectionBoxSchema>;

export const photoCreateSchema = z.object({
  cameraId: uuidSchema.nullish(),
  imageData: imageDataUrlSchema,
  captureMode: captureModeSchema.default("single"),
  storyId: uuidSchema.nullish(),
  videoWidth: z.number().int().min(1).max(16384).nullish(),
  videoHeight: z.number().int().min(1).max(16384).nullish(),
  // Stored as a PostgreSQL real: values too small for it (1e-320) are refused there, so here.
  frameRate: z
    .number()
    .min(0)
    .max(1000)
    .refine((fps) => fps === 0 || fps >= 0.001, "frameRate must be 0 or between 0.001 and 1000")
    .nullish(),
  detectionQuery: z.string().trim().max(200, "detectionQuery must be at most 200 characters").nullish(),
  detectionBoxes: z.array(detectionBoxSchema).max(100, "at most 100 detection boxes").nullish(),
  autoCapture: z.boolean().default(false),
  description: z
    .string({ error: "description must be text" })
    .trim()
    .max(1000, "description must be at most 1000 characters")
    .nullish()
    .describe("Moondream's description of the photo's frame (local vision's \"describe with Moondream\")"),
  visionEvent: z
    .boolean({ error: "visionEvent must be true or false" })
    .default(false)
    .describe(
      "the photo of a local-vision event (line.crossed, zone.*), named by that event's photoId: the event's own webhook and alerts carry it, so no detection webhook or detection alert fires for the photo as well",
    ),
});
export type PhotoCreateInput = z.infer<typeof photoCreateSchema>;

/** POST /api/cameras/{id}/capture: a photo the server takes from the IP camera's stream; the camera and picture are the server's. */
export const photoCaptureSchema = photoCreateSchema.omit({ cameraId: true, imageData: true, videoWidth: true, videoHeight: true });
export type PhotoCaptureInput = z.infer<typeof photoCaptureSchema>;

export const photoListQuerySchema = pageParamsSchema.extend({
  cameraId: uuidSchema.optional(),
  storyId: uuidSchema.optional(),
  autoCapture: booleanQuerySchema.optional(),
});
export type PhotoListQuery = z.infer<typeof photoListQuerySchema>;

export const photoSchema = z.object({
  id: uuidSchema,
  cameraId: uuidSchema.nullable(),
  cameraName: z.string().nullable(),
  storyId: uuidSchema.nullable(),
  createdAt: dateTimeSchema,
  captureMode: captureModeSchema,
  autoCapture: z.boolean(),
  detectionQuery: z.string().nullable(),
  detectionBoxes: z.array(detectionBoxSchema).nullable(),
  description: z.string().nullable().describe("Moondream's description of the frame, when a local-vision rule asked for one"),
  videoWidth: z.number().int().nullable(),
  videoHeight: z.number().int().nullable(),
  frameRate: z.number().nullable(),
  width: z.number().int().describe("pixel width of the stored image"),
  height: z.number().int(),
  bytes: z.number().int(),
  imageUrl: z.string(),
  thumbnailUrl: z.string(),
  sourcePhotoId: uuidSchema.nullable().describe("the photo this one was made from by an edit (cut-out, blur, crop); null for captures, or once the source is deleted"),
  editKind: photoEditKindSchema.nullable().describe("the edit that made this photo from its source; null for captures"),
});
export type Photo = z.infer<typeof photoSchema>;

export const photoWithImageSchema = photoSchema.extend({ imageData: z.string().describe("the original image as a data URL") });
