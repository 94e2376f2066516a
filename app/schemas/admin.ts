// What the admin dashboard and its JSON API read.
import { z } from "zod";
import { userRoleSchema } from "./auth";
import { dateTimeSchema, uuidSchema } from "./common";

export const ADMIN_PAGE_SIZE = 100;

export const adminUserSchema = z.object({
  id: uuidSchema,
  username: z.string(),
  role: userRoleSchema,
  hasMoondreamApiKey: z.boolean(),
  hasWebhook: z.boolean(),
  webhookEnabled: z.boolean(),
  createdAt: dateTimeSchema,
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const pageQuerySchema = z.object({
  page: z.coerce.number({ error: "page must be a whole number" }).int("page must be a whole number").min(1, "page starts at 1").default(1),
});
