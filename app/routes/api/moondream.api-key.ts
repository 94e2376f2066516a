// POST /api/moondream/api-key {apiKey} → saves the user's own Moondream key (encrypted; never returned).
// DELETE → forgets it, so calls use the shared key's free quota again.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { ProblemError } from "../../../server/errors";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { deleteApiKey, saveApiKey } from "../../../server/vision/credentials";
import { INVALID_API_KEY, apiKeySaveSchema } from "../../schemas/vision";

/** Whatever is wrong with the key, the person sees the spec's one message (not "apiKey: …"). */
function asInvalidKey(error: unknown): never {
  if (error instanceof ProblemError && error.status === 400) throw new ProblemError(400, INVALID_API_KEY, { errors: { apiKey: [INVALID_API_KEY] } });
  throw error;
}

export const loader = apiRoute({
  POST: async ({ request }) => {
    const user = await requireUser(request);
    const { apiKey } = await readJson(request, apiKeySaveSchema).catch(asInvalidKey);
    return json(await saveApiKey(db(), user.id, apiKey));
  },
  DELETE: async ({ request }) => json(await deleteApiKey(db(), (await requireUser(request)).id)),
});
export const action = loader;
