// The alerts operations of the catalogue (see ./define.ts).
import { z } from "zod";
import { alertRuleInputSchema, alertRuleSchema, alertStatusSchema, contactStartSchema, contactVerifySchema } from "../automation";
import { defineOperation, noContent } from "./define";

export const alerts = {
  status: defineOperation({ method: "get", path: "/api/alerts", summary: "Which alert channels this server can send on, and the user's contacts", tag: "Alerts", access: "user", success: { status: 200, schema: alertStatusSchema } }),
  startContact: defineOperation({ method: "post", path: "/api/alerts/contacts", summary: "Save an e-mail address or phone number and send it a 6-digit code", tag: "Alerts", access: "user", body: contactStartSchema, success: { status: 200, schema: alertStatusSchema }, errors: [400, 429, 502, 503] }),
  verifyContact: defineOperation({ method: "post", path: "/api/alerts/contacts/verify", summary: "Confirm a contact with its code", tag: "Alerts", access: "user", body: contactVerifySchema, success: { status: 200, schema: alertStatusSchema }, errors: [400, 409, 410] }),
  removeContact: defineOperation({ method: "delete", path: "/api/alerts/contacts/{channel}", summary: "Forget the e-mail (channel email) or phone (channel sms) contact", tag: "Alerts", access: "user", success: { status: 200, schema: alertStatusSchema }, errors: [404] }),
  rules: defineOperation({ method: "get", path: "/api/alerts/rules", summary: "Alert rules", tag: "Alerts", access: "user", success: { status: 200, schema: z.array(alertRuleSchema) } }),
  createRule: defineOperation({ method: "post", path: "/api/alerts/rules", summary: "Add an alert rule", tag: "Alerts", access: "user", body: alertRuleInputSchema, success: { status: 201, schema: alertRuleSchema }, errors: [400, 409] }),
  replaceRule: defineOperation({ method: "put", path: "/api/alerts/rules/{id}", summary: "Replace an alert rule", tag: "Alerts", access: "user", body: alertRuleInputSchema, success: { status: 200, schema: alertRuleSchema }, errors: [400, 404] }),
  removeRule: defineOperation({ method: "delete", path: "/api/alerts/rules/{id}", summary: "Delete an alert rule", tag: "Alerts", access: "user", success: noContent, errors: [404] }),
};
