// The admin operations of the catalogue (see ./define.ts).
import { z } from "zod";
import { adminUserSchema, pageQuerySchema } from "../admin";
import { featureRequestSchema } from "../feature-requests";
import { defineOperation } from "./define";

export const admin = {
  listUsers: defineOperation({
    method: "get",
    path: "/api/admin/users",
    summary: "All users, 100 a page (X-Total-Count)",
    tag: "Admin",
    access: "admin",
    query: pageQuerySchema,
    success: { status: 200, schema: z.array(adminUserSchema) },
    errors: [400],
  }),
  listFeatureRequests: defineOperation({
    method: "get",
    path: "/api/admin/feature-requests",
    summary: "All feature requests, newest first, 100 a page",
    tag: "Admin",
    access: "admin",
    query: pageQuerySchema,
    success: { status: 200, schema: z.array(featureRequestSchema) },
    errors: [400],
  }),
};
