// GET /api/webhooks/secret → {secret} (created on first read); POST regenerates it.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json } from "../../../server/http/api";
import { getOrCreateSecret, regenerateSecret } from "../../../server/webhooks/secret";

export const loader = apiRoute({
  GET: async ({ request }) => json({ secret: await getOrCreateSecret(db(), (await requireUser(request)).id) }),
  POST: async ({ request }) => json({ secret: await regenerateSecret(db(), (await requireUser(request)).id) }),
});
export const action = loader;
