// The webhooks operations of the catalogue (see ./define.ts).
import { webhookDeliveriesSchema, webhookSecretSchema, webhookTestResultSchema } from "../automation";
import { webhookSettingsSchema } from "../webhooks";
import { defineOperation } from "./define";

export const webhooks = {
  settings: defineOperation({
    method: "get",
    path: "/api/webhooks/settings",
    summary: "Webhook settings",
    tag: "Webhooks",
    access: "user",
    success: { status: 200, schema: webhookSettingsSchema },
  }),
  saveSettings: defineOperation({
    method: "post",
    path: "/api/webhooks/settings",
    summary: "Save webhook settings (turning it on clears an automatic switch-off); 422 when the URL would reach a non-public address or carries credentials",
    tag: "Webhooks",
    access: "user",
    body: webhookSettingsSchema,
    success: { status: 200, schema: webhookSettingsSchema },
    errors: [400, 422],
  }),
  sendTest: defineOperation({
    method: "post",
    path: "/api/webhooks/test",
    summary: "Send a signed webhook_test event to the saved URL now and report the receiver's answer",
    tag: "Webhooks",
    access: "user",
    success: { status: 200, schema: webhookTestResultSchema },
    errors: [400],
  }),
  secret: defineOperation({
    method: "get",
    path: "/api/webhooks/secret",
    summary: "The Standard Webhooks signing secret (whsec_…), created on first read",
    tag: "Webhooks",
    access: "user",
    success: { status: 200, schema: webhookSecretSchema },
  }),
  rotateSecret: defineOperation({
    method: "post",
    path: "/api/webhooks/secret",
    summary: "Replace the signing secret",
    tag: "Webhooks",
    access: "user",
    success: { status: 200, schema: webhookSecretSchema },
  }),
  deliveries: defineOperation({
    method: "get",
    path: "/api/webhooks/deliveries",
    summary: "The last 20 deliveries, and why the webhook was switched off if it was",
    tag: "Webhooks",
    access: "user",
    success: { status: 200, schema: webhookDeliveriesSchema },
  }),
};
