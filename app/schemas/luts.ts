// Colour lookup tables: .cube text uploaded by users, plus the built-in presets.
import { z } from "zod";
import { LUT_1D_MAX_SIZE, LUT_3D_MIN_SIZE, MAX_CUBE_TEXT_LENGTH } from "../image/constants";
import { dateTimeSchema, requiredText, uuidSchema } from "./common";

/** The longest .cube text the parser accepts (~90 M characters: a 129³ cube behind a 65536-point shaper). */
export const LUT_MAX_TEXT_LENGTH = MAX_CUBE_TEXT_LENGTH;
const sizeRange = `size must be between ${LUT_3D_MIN_SIZE} and ${LUT_1D_MAX_SIZE}`;
export const LUT_NAME_MAX_LENGTH = 200;

export const lutCreateSchema = z.object({
  name: requiredText("Name", LUT_NAME_MAX_LENGTH),
  lutData: z.string({ error: "lutData is required" }).min(1, "lutData is required").max(LUT_MAX_TEXT_LENGTH, `lutData must be at most ${LUT_MAX_TEXT_LENGTH} characters`),
  /** The file's table size: LUT_3D_SIZE (also for a shaper file), or LUT_1D_SIZE for a 1D LUT; checked against the file. */
  size: z.number().int().min(LUT_3D_MIN_SIZE, sizeRange).max(LUT_1D_MAX_SIZE, sizeRange).optional(),
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
