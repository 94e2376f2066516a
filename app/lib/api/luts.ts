// The browser's calls on LUTs (typed by the catalogue; see ./call.ts).
import { api } from "../../schemas/operations";
import { call, type OperationBody } from "./call";

export const lutsApi = {
  list: () => call(api.luts.list),
  get: (id: string) => call(api.luts.get, { params: { id } }),
  create: (body: OperationBody<typeof api.luts.create>) => call(api.luts.create, { body }),
  remove: (id: string) => call(api.luts.remove, { params: { id } }),
};
