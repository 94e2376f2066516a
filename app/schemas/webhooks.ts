// Per-user webhook settings (delivery itself is the automation service's job).
import { z } from "zod";

export const webhookEventTypeSchema = z.enum(["simple", "detailed"], { error: "webhookEventType must be simple or detailed" });

export const webhookSettingsSchema = z.object({
  webhookUrl: z
    .string()
    .trim()
    .max(2000, "webhookUrl must be at most 2000 characters")
    .refine((value) => {
      if (value === "") return true;
      try {
        const url = new URL(value);
        return url.protocol === "http:" || url.protocol === "https:";
      } catch {
        return false;
      }
    }, "webhookUrl must be an http:// or https:// URL")
    .transform((value) => (value === "" ? null : value))
    .nullable(),
  webhookEnabled: z.boolean({ error: "webhookEnabled must be true or false" }),
  webhookEventType: webhookEventTypeSchema,
});
export type WebhookSettings = z.infer<typeof webhookSettingsSchema>;
