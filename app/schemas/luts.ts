// Colour lookup tables: .cube text uploaded by users, plus the built-in presets.
import { z } from "zod";
import { dateTimeSchema, requiredText, uuidSchema } from "./common";

export const LUT_MAX_BYTES = 8 * 1024 * 1024;

export const lutCreateSchema = z.object({
  name: requiredText("Name", 200),
  lutData: z.string({ error: "lutData is required" }).min(1, "lutData is required").max(LUT_MAX_BYTES, "lutData must be at most 8 MB"),
  size: z.number().int().min(2, "size must be between 2 and 64").max(64, "size must be between 2 and 64").optional(),
});

export const lutSummarySchema = z.object({
  id: uuidSchema,
  name: z.string(),
  size: z.number().int(),
  builtin: z.boolean(),
  createdAt: dateTimeSchema,
});
export type LutSummary = z.infer<typeof lutSummarySchema>;

export const lutSchema = lutSummarySchema.extend({ lutData: z.string() });
export type Lut = z.infer<typeof lutSchema>;
