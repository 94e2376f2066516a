// GET /api/webhooks/secret → {secret} (created on first read); POST regenerates it.
import { db } from "#db/index";
import { getOrCreateSecret, regenerateSecret } from "#server/webhooks/secret";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.webhooks.secret, async ({ user }) => ({ secret: await getOrCreateSecret(db(), user.id) })),
  POST: handle(api.webhooks.rotateSecret, async ({ user }) => ({ secret: await regenerateSecret(db(), user.id) })),
});
export const action = loader;
