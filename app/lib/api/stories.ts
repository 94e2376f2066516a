// The browser's calls on stories and their captions (typed by the catalogue; see ./call.ts).
import { api } from "../../schemas/operations";
import { call, type OperationBody } from "./call";

export const storiesApi = {
  list: () => call(api.stories.list),
  get: (id: string) => call(api.stories.get, { params: { id } }),
  create: (body: OperationBody<typeof api.stories.create>) => call(api.stories.create, { body }),
  rename: (id: string, title: string) => call(api.stories.rename, { params: { id }, body: { title } }),
  finish: (id: string) => call(api.stories.finish, { params: { id } }),
  captions: (id: string) => call(api.stories.captions, { params: { id } }),
  addCaption: (id: string, caption: string, photoId: string | null) => call(api.stories.addCaption, { params: { id }, body: { caption, photoId } }),
  photos: (id: string) => call(api.stories.photos, { params: { id } }),
};
