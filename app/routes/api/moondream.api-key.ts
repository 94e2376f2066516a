// POST /api/moondream/api-key {apiKey} → saves the user's own Moondream key (encrypted; never returned).
// DELETE → forgets it, so calls use the shared key's free quota again.
import { db } from "#db/index";
import { ProblemError } from "#server/errors";
import { deleteApiKey, saveApiKey } from "#server/vision/credentials";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";
import { INVALID_API_KEY } from "../../schemas/vision";

export const loader = apiRoute({
  // Whatever is wrong with the key, the person sees the spec's one message (not "apiKey: …").
  POST: handle(api.moondream.saveApiKey, { badInput: () => new ProblemError(400, INVALID_API_KEY, { errors: { apiKey: [INVALID_API_KEY] } }) }, async ({ user, body }) =>
    saveApiKey(db(), user.id, body.apiKey),
  ),
  DELETE: handle(api.moondream.removeApiKey, async ({ user }) => deleteApiKey(db(), user.id)),
});
export const action = loader;
