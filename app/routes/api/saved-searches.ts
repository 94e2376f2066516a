// The saved searches operations' handlers (app/schemas/operations/saved-searches.ts), one per catalogue entry.
import { db } from "#db/index";
import { handle } from "#server/http/operation";
import type { ResourceHandlers } from "#server/http/api";
import { createSavedSearch, deleteSavedSearch, listSavedSearches } from "#server/search/saved";
import { api } from "../../schemas/operations/index";

export const savedSearches = {
  // GET /api/saved-searches → the user's saved searches; POST saves one (at most 20).
  list: handle(api.savedSearches.list, async ({ user }) => listSavedSearches(db(), user.id)),
  create: handle(api.savedSearches.create, async ({ user, body }) => createSavedSearch(db(), user.id, body)),
  // DELETE /api/saved-searches/:id
  remove: handle(api.savedSearches.remove, { resource: "Saved search" }, async ({ user, params }) => {
    await deleteSavedSearch(db(), user.id, params.id);
  }),
} satisfies ResourceHandlers<typeof api.savedSearches>;
