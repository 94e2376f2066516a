// The meta operations of the catalogue (see ./define.ts).
import { defineOperation } from "./define";

export const meta = {
  openapi: defineOperation({
    method: "get",
    path: "/api/openapi.json",
    summary: "This document",
    tag: "Meta",
    access: "public",
    success: { status: 200, schema: null, contentType: "application/json" },
  }),
};
