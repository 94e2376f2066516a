// GET /api/alerts/rules → the user's alert rules; POST creates one.
import { db } from "#db/index";
import { createRule, listRules } from "#server/alerts/rules";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.alerts.rules, async ({ user }) => listRules(db(), user.id)),
  POST: handle(api.alerts.createRule, async ({ user, body }) => createRule(db(), user.id, body)),
});
export const action = loader;
