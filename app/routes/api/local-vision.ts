// The localVision operations' handlers (app/schemas/operations/local-vision.ts), one per catalogue entry.
import { db } from "#db/index";
import { handle } from "#server/http/operation";
import { createZone, listZones, createLine, listLines, recordEvents, readCounts, countsCsv, deleteRegion, updateZone, resetCounts, updateLine } from "#server/local-vision/service";
import { openSceneStream } from "#server/local-vision/pipeline/live-scene";
import { getWatch, setWatch } from "#server/local-vision/watch";
import { readHeatmap } from "#server/local-vision/heat";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

const camera = { resource: "Camera" };
const zone = { resource: "Zone" };
const line = { resource: "Line" };

export const localVision = {
  // GET /api/cameras/:id/zones → the camera's zones; POST adds one.
  listZones: handle(api.localVision.listZones, camera, async ({ user, params }) => listZones(db(), user.id, params.id)),
  createZone: handle(api.localVision.createZone, camera, async ({ user, params, body }) => createZone(db(), user.id, params.id, body)),
  // GET /api/cameras/:id/lines → the camera's lines; POST adds one.
  listLines: handle(api.localVision.listLines, camera, async ({ user, params }) => listLines(db(), user.id, params.id)),
  createLine: handle(api.localVision.createLine, camera, async ({ user, params, body }) => createLine(db(), user.id, params.id, body)),
  // POST /api/cameras/:id/vision-events — the studio's local-vision events: counted, sent to the webhook, alerted on.
  postEvents: handle(api.localVision.postEvents, { ...camera, bodyLimit: 64 * 1024 }, async ({ user, params, body }) =>
    recordEvents(db(), user.id, params.id, body.events, body.batchId, body.heat),
  ),
  // GET /api/cameras/:id/counts — the camera's line and zone counts per minute.
  counts: handle(api.localVision.counts, camera, async ({ user, params, query }) => readCounts(db(), user.id, params.id, query)),
  // GET /api/cameras/:id/counts.csv — the same counts as a CSV download.
  countsCsv: handle(api.localVision.countsCsv, camera, async ({ user, params, query }) => {
    const { filename, csv } = await countsCsv(db(), user.id, params.id, query);
    return new Response(csv, {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" },
    });
  }),
  // GET /api/cameras/:id/heatmap — where tracks walked and stayed over a period, summed per cell of the grid.
  heatmap: handle(api.localVision.heatmap, camera, async ({ user, params, query }) => readHeatmap(db(), user.id, params.id, query)),
  // /api/zones/:id — PUT replaces a zone, DELETE removes it with its counts.
  updateZone: handle(api.localVision.updateZone, zone, async ({ user, params, body }) => updateZone(db(), user.id, params.id, body)),
  removeZone: handle(api.localVision.removeZone, zone, async ({ user, params }) => {
    await deleteRegion(db(), user.id, "zone", params.id);
  }),
  // POST /api/zones/:id/reset — the zone's counts start again from nothing.
  resetZone: handle(api.localVision.resetZone, zone, async ({ user, params }) => {
    await resetCounts(db(), user.id, "zone", params.id);
  }),
  // /api/lines/:id — PUT replaces a line, DELETE removes it with its counts.
  updateLine: handle(api.localVision.updateLine, line, async ({ user, params, body }) => updateLine(db(), user.id, params.id, body)),
  removeLine: handle(api.localVision.removeLine, line, async ({ user, params }) => {
    await deleteRegion(db(), user.id, "line", params.id);
  }),
  // POST /api/lines/:id/reset — the line's counts start again from nothing.
  resetLine: handle(api.localVision.resetLine, line, async ({ user, params }) => {
    await resetCounts(db(), user.id, "line", params.id);
  }),
  // GET /api/cameras/:id/watch — the server's local vision for this IP camera, and how its pipeline runs.
  getWatch: handle(api.localVision.getWatch, camera, async ({ user, params }) => getWatch(db(), user.id, params.id)),
  // PUT /api/cameras/:id/watch — switch it on or off, with its classes, rate and width.
  setWatch: handle(api.localVision.setWatch, camera, async ({ user, params, body, services }) => {
    const watch = await setWatch(db(), user.id, params.id, body);
    services.pipelines.poke(); // this process starts, changes or stops it now; the others at their next look
    return watch;
  }),
  // GET /api/cameras/:id/watch/live — Server-Sent Events of the server's live scene (tracks, counts, occupancy).
  watchLive: handle(api.localVision.watchLive, camera, async ({ user, params, request, services }) => {
    await getWatch(db(), user.id, params.id); // 404 unless it is the user's camera
    return openSceneStream(services.pipelines, user.id, params.id, request.signal);
  }),
} satisfies ResourceHandlers<typeof api.localVision>;
