// Feature requests sent from the studio and read in the admin dashboard.
import { z } from "zod";
import { dateTimeSchema, requiredText, uuidSchema } from "./common";

export const featureRequestInputSchema = z.object({
  title: requiredText("Title", 200),
  description: requiredText("Description", 5000),
});
export type FeatureRequestInput = z.infer<typeof featureRequestInputSchema>;

export const featureRequestSchema = z.object({
  id: uuidSchema,
  userId: uuidSchema.nullable(),
  title: z.string(),
  description: z.string(),
  createdAt: dateTimeSchema,
});
export type FeatureRequest = z.infer<typeof featureRequestSchema>;
