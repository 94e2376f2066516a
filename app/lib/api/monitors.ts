// The browser's calls on monitors (typed by the catalogue; see ./call.ts).
import { api } from "../../schemas/operations";
import { call, type OperationBody } from "./call";

export const monitorsApi = {
  list: () => call(api.monitors.list),
  create: (body: OperationBody<typeof api.monitors.create>) => call(api.monitors.create, { body }),
  update: (id: string, body: OperationBody<typeof api.monitors.update>) => call(api.monitors.update, { params: { id }, body }),
  pause: (id: string) => call(api.monitors.pause, { params: { id } }),
  resume: (id: string) => call(api.monitors.resume, { params: { id } }),
  remove: (id: string) => call(api.monitors.remove, { params: { id } }),
};
