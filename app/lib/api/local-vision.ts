// The browser's calls on local vision: zones and lines per camera, the tracker's events, counts, the server's watch (typed by the catalogue; see ./call.ts).
import { api } from "../../schemas/operations";
import type { ServerScene } from "../../studio/local-vision/server-scene";
import { call, operationUrl, type OperationBody } from "./call";

type CountsQuery = { from?: string; to?: string; lineId?: string; zoneId?: string };

export const localVisionApi = {
  zones: (cameraId: string) => call(api.localVision.listZones, { params: { id: cameraId } }),
  createZone: (cameraId: string, body: OperationBody<typeof api.localVision.createZone>) => call(api.localVision.createZone, { params: { id: cameraId }, body }),
  updateZone: (id: string, body: OperationBody<typeof api.localVision.updateZone>) => call(api.localVision.updateZone, { params: { id }, body }),
  removeZone: (id: string) => call(api.localVision.removeZone, { params: { id } }),
  resetZone: (id: string) => call(api.localVision.resetZone, { params: { id } }),
  lines: (cameraId: string) => call(api.localVision.listLines, { params: { id: cameraId } }),
  createLine: (cameraId: string, body: OperationBody<typeof api.localVision.createLine>) => call(api.localVision.createLine, { params: { id: cameraId }, body }),
  updateLine: (id: string, body: OperationBody<typeof api.localVision.updateLine>) => call(api.localVision.updateLine, { params: { id }, body }),
  removeLine: (id: string) => call(api.localVision.removeLine, { params: { id } }),
  resetLine: (id: string) => call(api.localVision.resetLine, { params: { id } }),
  /** Up to 100 events at once (MAX_VISION_EVENTS), `at` in Unix milliseconds. */
  postEvents: (cameraId: string, body: OperationBody<typeof api.localVision.postEvents>, options: { keepalive?: boolean } = {}) =>
    call(api.localVision.postEvents, { params: { id: cameraId }, body, keepalive: options.keepalive }),
  counts: (cameraId: string, query: CountsQuery = {}) => call(api.localVision.counts, { params: { id: cameraId }, query }),
  /** The CSV download's address, for a link with `download` (the browser sends the session cookie). */
  countsCsvUrl: (cameraId: string, query: CountsQuery = {}) => operationUrl(api.localVision.countsCsv, { params: { id: cameraId }, query }),
  /** Where tracks walked and stayed on the camera's picture over the period (default: the last 7 days). */
  heatmap: (cameraId: string, query: { from?: string; to?: string } = {}) => call(api.localVision.heatmap, { params: { id: cameraId }, query }),
  /** The server's local vision on an IP camera: whether it watches it, with what, and how its pipeline runs. */
  watch: (cameraId: string) => call(api.localVision.getWatch, { params: { id: cameraId } }),
  setWatch: (cameraId: string, body: OperationBody<typeof api.localVision.setWatch>) => call(api.localVision.setWatch, { params: { id: cameraId }, body }),
  /**
   * Follows the server's live scene of a watched camera (Server-Sent Events; the browser reconnects by itself) until
   * the returned function is called.
   */
  followWatchLive: (cameraId: string, onScene: (scene: ServerScene) => void): (() => void) => {
    const source = new EventSource(operationUrl(api.localVision.watchLive, { params: { id: cameraId } }));
    source.addEventListener("scene", (event) => onScene(JSON.parse((event as MessageEvent<string>).data) as ServerScene));
    return () => source.close();
  },
};
