// The browser's calls on library search and saved searches (typed by the catalogue; see ./call.ts).
import { api } from "../../schemas/operations";
import { call, type OperationBody, type OperationQuery } from "./call";

export const searchApi = {
  /** One page of results with the facet counts, total and next cursor. */
  photos: (query: OperationQuery<typeof api.photos.search>, signal?: AbortSignal) => call(api.photos.search, { query, signal }),
  saved: () => call(api.savedSearches.list),
  save: (body: OperationBody<typeof api.savedSearches.create>) => call(api.savedSearches.create, { body }),
  removeSaved: (id: string) => call(api.savedSearches.remove, { params: { id } }),
};
