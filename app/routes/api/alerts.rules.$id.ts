// PUT /api/alerts/rules/:id replaces a rule; DELETE removes it.
import { db } from "#db/index";
import { deleteRule, updateRule } from "#server/alerts/rules";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  PUT: handle(api.alerts.replaceRule, { resource: "Alert rule" }, async ({ user, params, body }) => updateRule(db(), user.id, params.id, body)),
  DELETE: handle(api.alerts.removeRule, { resource: "Alert rule" }, async ({ user, params }) => {
    await deleteRule(db(), user.id, params.id);
  }),
});
export const action = loader;
