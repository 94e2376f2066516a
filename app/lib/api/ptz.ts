// The browser's PTZ calls: the relay commands to an IP camera (each carries the connection) and the saved presets
// (typed by the catalogue; see ./call.ts).
import { api } from "../../schemas/operations";
import type { PtzTargetInput } from "../../schemas/ptz";
import { call, type OperationBody } from "./call";

const commands = { move: api.ptz.move, drive: api.ptz.drive, zoom: api.ptz.zoom, focus: api.ptz.focus, stop: api.ptz.stop, preset: api.ptz.preset, exposure: api.ptz.exposure };
export type PtzCommand = keyof typeof commands;
/** A command's body without the connection, which `command` adds. */
export type PtzCommandBody<K extends PtzCommand> = Omit<OperationBody<(typeof commands)[K]>, "connection">;

export const ptzApi = {
  connect: (connection: PtzTargetInput) => call(api.ptz.connect, { body: { connection } }),
  /** One relay command; `keepalive` lets a stop outlive the page. */
  command: <K extends PtzCommand>(kind: K, connection: PtzTargetInput, body: PtzCommandBody<K>, options: { keepalive?: boolean } = {}) =>
    // One body type per command: the union of operations is narrowed by `kind`, which TypeScript cannot follow here.
    call(commands[kind] as typeof api.ptz.move, { body: { connection, ...body } as unknown as OperationBody<typeof api.ptz.move>, keepalive: options.keepalive }),
};

export const presetsApi = {
  list: (cameraId: string) => call(api.presets.list, { query: { cameraId } }),
  create: (body: OperationBody<typeof api.presets.create>) => call(api.presets.create, { body }),
  remove: (id: string) => call(api.presets.remove, { params: { id } }),
};
