// The presets operations of the catalogue (see ./define.ts).
import { z } from "zod";
import { presetCreateSchema, presetListQuerySchema, presetSchema } from "../cameras";
import { defineOperation, noContent } from "./define";

export const presets = {
  list: defineOperation({
    method: "get",
    path: "/api/presets",
    summary: "Saved PTZ presets, optionally of one camera",
    tag: "Presets",
    access: "user",
    query: presetListQuerySchema,
    success: { status: 200, schema: z.array(presetSchema) },
    errors: [400],
  }),
  create: defineOperation({
    method: "post",
    path: "/api/presets",
    summary: "Save a preset by number or position",
    tag: "Presets",
    access: "user",
    body: presetCreateSchema,
    success: { status: 201, schema: presetSchema },
    errors: [400, 404, 409],
  }),
  remove: defineOperation({ method: "delete", path: "/api/presets/{id}", summary: "Delete a preset", tag: "Presets", access: "user", success: noContent, errors: [404] }),
};
