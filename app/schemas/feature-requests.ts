// Feature requests sent from the studio and read in the admin dashboard.
import { z } from "zod";

export const featureRequestInputSchema = z.object({
  title: z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(200, "Title must be at most 200 characters"),
  description: z
    .string({ error: "Description is required" })
    .trim()
    .min(1, "Description is required")
    .max(5000, "Description must be at most 5000 characters"),
});
export type FeatureRequestInput = z.infer<typeof featureRequestInputSchema>;

export const featureRequestSchema = z.object({
  id: z.string().uuid(),
  userId: z.string().uuid().nullable(),
  title: z.string(),
  description: z.string(),
  createdAt: z.string().datetime(),
});
export type FeatureRequest = z.infer<typeof featureRequestSchema>;
