// The featureRequests operations of the catalogue (see ./define.ts).
import { featureRequestInputSchema, featureRequestSchema } from "../feature-requests";
import { defineOperation } from "./define";

export const featureRequests = {
  create: defineOperation({
    method: "post",
    path: "/api/feature-requests",
    summary: "Send a feature request",
    tag: "Feature requests",
    access: "user",
    body: featureRequestInputSchema,
    success: { status: 201, schema: featureRequestSchema },
    errors: [400],
  }),
};
