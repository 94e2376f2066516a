// The alerts operations' handlers (app/schemas/operations/alerts.ts), one per catalogue entry.
import { db } from "#db/index";
import { alertStatus, startVerification, confirmVerification, removeContact } from "#server/alerts/service";
import { handle } from "#server/http/operation";
import { createRule, listRules, deleteRule, updateRule } from "#server/alerts/rules";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

export const alerts = {
  // GET /api/alerts → which channels the server can send on, and the user's contacts.
  status: handle(api.alerts.status, async ({ user }) => alertStatus(db(), user.id)),
  // POST /api/alerts/contacts {channel, address}: saves the address and sends it a 6-digit code.
  startContact: handle(api.alerts.startContact, async ({ user, body, services }) => startVerification(db(), services.mailer, user.id, body)),
  // POST /api/alerts/contacts/verify {channel, code}: confirms the address the code was sent to.
  verifyContact: handle(api.alerts.verifyContact, async ({ user, body }) => confirmVerification(db(), user.id, body.channel, body.code)),
  // DELETE /api/alerts/contacts/:channel (email or sms): forgets that contact.
  removeContact: handle(api.alerts.removeContact, { resource: "Contact" }, async ({ user, params }) => removeContact(db(), user.id, params.channel as "email" | "sms")),
  // GET /api/alerts/rules → the user's alert rules; POST creates one.
  rules: handle(api.alerts.rules, async ({ user }) => listRules(db(), user.id)),
  createRule: handle(api.alerts.createRule, async ({ user, body }) => createRule(db(), user.id, body)),
  // PUT /api/alerts/rules/:id replaces a rule; DELETE removes it.
  replaceRule: handle(api.alerts.replaceRule, { resource: "Alert rule" }, async ({ user, params, body }) => updateRule(db(), user.id, params.id, body)),
  removeRule: handle(api.alerts.removeRule, { resource: "Alert rule" }, async ({ user, params }) => {
    await deleteRule(db(), user.id, params.id);
  }),
} satisfies ResourceHandlers<typeof api.alerts>;
