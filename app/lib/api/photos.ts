// The browser's calls on photos (typed by the catalogue; see ./call.ts); images are loaded by URL, not fetched.
import { api } from "../../schemas/operations";
import { call, callWithHeaders, operationUrl, type OperationBody, type OperationQuery } from "./call";

type ListQuery = Omit<OperationQuery<typeof api.photos.list>, "cursor"> & { cursor?: string | null };

export const photosApi = {
  /** One page, newest first, and the next page's cursor (X-Next-Cursor; null on the last page). */
  list: async ({ cursor, ...query }: ListQuery = {}) => {
    const { data, headers } = await callWithHeaders(api.photos.list, { query: { ...query, cursor: cursor ?? undefined } });
    return { items: data, nextCursor: headers.get("x-next-cursor") };
  },
  create: (body: OperationBody<typeof api.photos.create>) => call(api.photos.create, { body }),
  get: (id: string) => call(api.photos.get, { params: { id } }),
  remove: (id: string) => call(api.photos.remove, { params: { id } }),
  thumbnailUrl: (id: string) => operationUrl(api.photos.thumbnail, { params: { id } }),
  /** Moondream's outline of an object on the photo (one AI call), to preview before saving an edit. */
  segment: (id: string, body: OperationBody<typeof api.photos.segment>, signal?: AbortSignal) => call(api.photos.segment, { params: { id }, body, signal }),
  /** Saves a cut-out, blur or crop of the photo as a new photo (returned). */
  createEdit: (id: string, body: OperationBody<typeof api.photos.createEdit>) => call(api.photos.createEdit, { params: { id }, body }),
};
