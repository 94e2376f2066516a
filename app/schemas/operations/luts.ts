// The luts operations of the catalogue (see ./define.ts).
import { z } from "zod";
import { lutCreateSchema, lutSchema, lutSummarySchema } from "../luts";
import { defineOperation, noContent } from "./define";

export const luts = {
  list: defineOperation({
    method: "get",
    path: "/api/luts",
    summary: "The user's LUTs, built-in presets first (without lutData)",
    tag: "LUTs",
    access: "user",
    success: { status: 200, schema: z.array(lutSummarySchema) },
  }),
  create: defineOperation({
    method: "post",
    path: "/api/luts",
    summary: "Upload a .cube LUT (validated on the server)",
    tag: "LUTs",
    access: "user",
    body: lutCreateSchema,
    success: { status: 201, schema: lutSummarySchema },
    errors: [400, 413, 422],
  }),
  get: defineOperation({
    method: "get",
    path: "/api/luts/{id}",
    summary: "One LUT with its .cube text",
    tag: "LUTs",
    access: "user",
    success: { status: 200, schema: lutSchema },
    errors: [404],
  }),
  remove: defineOperation({
    method: "delete",
    path: "/api/luts/{id}",
    summary: "Delete an uploaded LUT (built-ins answer 403)",
    tag: "LUTs",
    access: "user",
    success: noContent,
    errors: [403, 404],
  }),
};
