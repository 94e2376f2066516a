// PUT /api/alerts/rules/:id replaces a rule; DELETE removes it.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { deleteRule, updateRule } from "../../../server/alerts/rules";
import { apiRoute, idParam, json, readJson } from "../../../server/http/api";
import { alertRuleInputSchema } from "../../schemas/automation";

export const loader = apiRoute<{ request: Request; params: { id?: string } }>({
  PUT: async ({ request, params }) => {
    const user = await requireUser(request);
    const id = idParam(params.id, "Alert rule");
    return json(await updateRule(db(), user.id, id, await readJson(request, alertRuleInputSchema)));
  },
  DELETE: async ({ request, params }) => {
    const user = await requireUser(request);
    await deleteRule(db(), user.id, idParam(params.id, "Alert rule"));
    return new Response(null, { status: 204 });
  },
});
export const action = loader;
