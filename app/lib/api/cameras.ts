// The browser's calls on cameras (typed by the catalogue; see ./call.ts).
import { api } from "../../schemas/operations";
import { call, fetchBlob, type OperationBody } from "./call";

export const camerasApi = {
  list: () => call(api.cameras.list),
  get: (id: string) => call(api.cameras.get, { params: { id } }),
  create: (body: OperationBody<typeof api.cameras.create>) => call(api.cameras.create, { body }),
  rename: (id: string, name: string) => call(api.cameras.update, { params: { id }, body: { name } }),
  setThumbnail: (id: string, thumbnail: string) => call(api.cameras.update, { params: { id }, body: { thumbnail } }),
  setVideo: (id: string, body: OperationBody<typeof api.cameras.saveVideo>) => call(api.cameras.saveVideo, { params: { id }, body }),
  /** Adds an IP camera: {name, streamUrl} or {name, host, username?, password?}; 422 with errors.<field> when it cannot be used. */
  createIp: (body: OperationBody<typeof api.cameras.createIp>) => call(api.cameras.createIp, { body }),
  /** A new address and/or credentials for an IP camera (probed again). */
  updateIp: (id: string, body: OperationBody<typeof api.cameras.updateIp>) => call(api.cameras.updateIp, { params: { id }, body }),
  remove: (id: string) => call(api.cameras.remove, { params: { id } }),
  /** An IP camera's picture now, at its main stream's full resolution (captures); rejects with the offline reason's problem (503). */
  snapshot: (id: string) => fetchBlob(api.cameras.snapshot, { params: { id } }),
  /** Saves a photo of an IP camera that the server takes from its stream, at full resolution; 503 with the offline reason. */
  capture: (id: string, body: OperationBody<typeof api.cameras.capture>) => call(api.cameras.capture, { params: { id }, body }),
};
