// The deployment's local detector (issue 29, "bring your own model"): the built-in one, or an ONNX detector an
// administrator uploaded. What GET /api/local-detector tells the studios and the admin API's models and upload form.
import { z } from "zod";
import { ONNX_FORMATS, PIXEL_SCALINGS } from "../studio/local-vision/detectors/onnx-layout";
import { dateTimeSchema, uuidSchema } from "./common";
import { formFile } from "./operations/define";

/** The largest upload accepted, the model file and the form's few fields together (YOLO11l is ~100 MB in float32). */
export const MAX_DETECTOR_MODEL_BYTES = 200 * 1024 * 1024;
export const MAX_DETECTOR_NAME = 80;
export const MAX_LABEL_LENGTH = 100;

export { BUILT_IN_DETECTOR } from "../studio/local-vision/detector-types";

const onnxFormatSchema = z.enum(ONNX_FORMATS, { error: "Choose the model's format: yolo or detr" });
const pixelScalingSchema = z.enum(PIXEL_SCALINGS, { error: "Choose how pixels are scaled: unit or imagenet" });

/** What a studio needs to fetch, feed and read the model. */
const modelFields = {
  id: uuidSchema,
  name: z.string(),
  format: onnxFormatSchema,
  pixelScaling: pixelScalingSchema,
  labels: z.array(z.string()),
  inputWidth: z.number().int(),
  inputHeight: z.number().int(),
  sha256: z.string(),
  bytes: z.number().int(),
};

export const localDetectorSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("built-in"), name: z.string(), labels: z.array(z.string()) }),
  z.object({ kind: z.literal("onnx"), ...modelFields, modelUrl: z.string().describe("the model's bytes, versioned by its SHA-256 (cached for a year)") }),
]);
export type LocalDetector = z.infer<typeof localDetectorSchema>;

export const detectorModelSchema = z.object({
  ...modelFields,
  uploadedAt: dateTimeSchema,
  uploadedBy: z.string().nullable().describe("the uploader's username; null once the account is gone"),
  active: z.boolean(),
});
export type DetectorModel = z.infer<typeof detectorModelSchema>;

/** The label list as typed (one per line; blank lines and surrounding spaces dropped) or as a JSON array of strings. */
export function parseLabels(text: string): string[] | null {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (!Array.isArray(parsed) || !parsed.every((label) => typeof label === "string")) return null;
      return parsed.map((label: string) => label.trim()).filter(Boolean);
    } catch {
      return null;
    }
  }
  return trimmed
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

const labelsField = z
  .string()
  .default("")
  .transform((text, context) => {
    const labels = parseLabels(text);
    if (labels === null) {
      context.addIssue({ code: "custom", message: "Give the labels one per line, or as a JSON array of strings" });
      return z.NEVER;
    }
    return labels;
  })
  .pipe(z.array(z.string().max(MAX_LABEL_LENGTH, `A label is at most ${MAX_LABEL_LENGTH} characters`)));

/** POST /api/admin/detector-models, multipart/form-data. */
export const detectorUploadSchema = z.object({
  name: z.string({ error: "Give the model a name" }).trim().min(1, "Give the model a name").max(MAX_DETECTOR_NAME, `The name is at most ${MAX_DETECTOR_NAME} characters`),
  format: onnxFormatSchema,
  pixelScaling: z.preprocess((value) => (value === "" ? undefined : value), pixelScalingSchema.default("unit")),
  labels: labelsField.describe("the model's class names in class-id order: one per line, or a JSON array of strings"),
  activate: z
    .enum(["true", "false"], { error: "activate is true or false" })
    .optional()
    .transform((value) => value === "true")
    .describe('"true" makes it the studios\' detector at once'),
  file: formFile("the .onnx model file", "Choose the model's .onnx file"),
});
export type DetectorUpload = z.output<typeof detectorUploadSchema>;

export const activeDetectorInputSchema = z.object({
  modelId: uuidSchema.nullable().describe("an uploaded model's id, or null for the built-in detector"),
});
