// GET /api/alerts/rules → the user's alert rules; POST creates one.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { createRule, listRules } from "../../../server/alerts/rules";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { alertRuleInputSchema } from "../../schemas/automation";

export const loader = apiRoute({
  GET: async ({ request }) => json(await listRules(db(), (await requireUser(request)).id)),
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await createRule(db(), user.id, await readJson(request, alertRuleInputSchema)), { status: 201 });
  },
});
export const action = loader;
