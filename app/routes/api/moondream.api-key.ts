// POST /api/moondream/api-key {apiKey} → saves the user's own Moondream key (encrypted; never returned).
// DELETE → forgets it, so calls use the shared key's free quota again.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { deleteApiKey, saveApiKey } from "../../../server/vision/credentials";
import { apiKeySaveSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const user = await requireUser(request);
    const { apiKey } = await readJson(request, apiKeySaveSchema);
    return json(await saveApiKey(db(), user.id, apiKey));
  },
  DELETE: async ({ request }) => json(await deleteApiKey(db(), (await requireUser(request)).id)),
});
export const action = loader;
