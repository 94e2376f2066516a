// Photo edits from a Moondream outline (issue 32): the outline preview, and the cut-out, background blur and
// smart crop saved as new photos linked to their source.
import { z } from "zod";
import { requiredText } from "./common";
import { boxSchema, pointSchema } from "./vision";

export const CROP_ASPECTS = ["16:9", "1:1", "9:16", "4:5"] as const;
export const cropAspectSchema = z.enum(CROP_ASPECTS, { error: "aspect must be 16:9, 1:1, 9:16 or 4:5" });
export type CropAspect = z.infer<typeof cropAspectSchema>;

/** The longest outline accepted back from the studio (the same bound server/photo-edits/path.ts keeps). */
export const MAX_OUTLINE_LENGTH = 100_000;

const objectText = requiredText("object", 200).describe('what to outline, e.g. "dog" or "the person on the left"');

/** A box with some area: x_max > x_min and y_max > y_min. */
const outlineBoxSchema = boxSchema.refine((b) => b.x_max > b.x_min && b.y_max > b.y_min, "bbox must have x_max > x_min and y_max > y_min");

/** POST /api/photos/{id}/segment: what to outline, optionally seeded with points on it (clicks on the photo). */
export const segmentPreviewRequestSchema = z.object({
  object: objectText,
  points: z.array(pointSchema).max(10, "at most 10 points").optional().describe("points on the subject (fractions of the photo), sent to Moondream as spatial_refs"),
});
export type SegmentPreviewRequest = z.infer<typeof segmentPreviewRequestSchema>;

export const segmentPreviewSchema = z.object({
  path: z.string().describe('an SVG path normalised to bbox (0–1 both ways): draw it in an <svg viewBox="0 0 1 1" preserveAspectRatio="none"> placed at bbox'),
  bbox: boxSchema.describe("the outline's box, fractions of the photo"),
});
export type SegmentPreview = z.infer<typeof segmentPreviewSchema>;

/** POST /api/photos/{id}/edits: the outline previewed, and what to make of it. */
export const photoEditRequestSchema = z
  .object({
    kind: z.enum(["cutout", "blur", "crop"], { error: "kind must be cutout, blur or crop" }),
    object: objectText,
    path: z.string({ error: "path is required" }).min(1, "path is required").max(MAX_OUTLINE_LENGTH, `path must be at most ${MAX_OUTLINE_LENGTH} characters`),
    bbox: outlineBoxSchema,
    strength: z
      .number()
      .int("strength must be a whole number")
      .min(1, "strength must be 1–100")
      .max(100, "strength must be 1–100")
      .default(50)
      .describe("blur: how strongly the background is blurred, 1–100"),
    aspect: cropAspectSchema.optional().describe("crop: the aspect ratio of the crop around the subject"),
  })
  .refine((edit) => edit.kind !== "crop" || edit.aspect !== undefined, { message: "a crop needs an aspect (16:9, 1:1, 9:16 or 4:5)", path: ["aspect"] });
export type PhotoEditRequest = z.infer<typeof photoEditRequestSchema>;

/** GET /api/moondream/capabilities: what the deployment's Moondream server is known to do. */
export const moondreamCapabilitiesSchema = z.object({
  segmentation: z
    .enum(["unknown", "available", "unsupported"])
    .describe("unsupported: the server answered that it cannot segment (an older Moondream Station), remembered for a while; unknown until it was asked"),
});
export type MoondreamCapabilities = z.infer<typeof moondreamCapabilitiesSchema>;
