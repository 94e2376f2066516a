// Where people go (issue 31): each camera's heat grid (app/studio/local-vision/heat-grid.ts) kept per UTC hour, fed
// by the studio's event batches (saveEvents, service.ts) and the server's pipeline (pipeline/heat-recorder.ts), and
// read back summed over a period for the Insights page's heatmap.
import { HEAT_CELLS, HEAT_COLS, HEAT_ROWS, type HeatSnapshot } from "#app/studio/local-vision/heat-grid";
import { MAX_HEATMAP_DAYS, type Heatmap, type HeatmapQuery, type VisionHeat } from "#app/schemas/local-vision";
import type { DB } from "#db/index";
import { findCamera } from "../cameras/queries";
import { notFound, ProblemError } from "../errors";
import type { HeatIncrement } from "./heat-queries";
import * as q from "./heat-queries";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A grid's hour may end at most a day ago (a batch held back by a lost connection still counts, as events do). */
const HEAT_PAST_MS = DAY_MS;
/** Clocks a little apart: the hour may start up to 5 minutes from now. */
const HEAT_FUTURE_MS = 5 * 60_000;

/** Refuses a batch's grid for an hour too long ago or not yet begun (400 under heat.hour). */
export function checkHeatHour(heat: VisionHeat, now = Date.now()): void {
  if (heat.hour + HOUR_MS < now - HEAT_PAST_MS || heat.hour > now + HEAT_FUTURE_MS)
    throw new ProblemError(400, "The heat grid's hour is too old or in the future", { errors: { "heat.hour": ["must be within the last 24 hours"] } });
}

export const heatIncrement = (heat: VisionHeat | HeatSnapshot): HeatIncrement => ({
  hour: new Date(heat.hour),
  cols: heat.cols,
  rows: heat.rows,
  walk: heat.walk,
  stay: heat.stay,
});

/** The server's own pipeline's grid: the camera is the owner's, its clock the server's. */
export const recordHeat = (db: DB, userId: string, cameraId: string, heat: HeatSnapshot): Promise<void> => q.addHeat(db, userId, cameraId, heatIncrement(heat));

/** The span a heatmap covers: `to` defaults to now, `from` to 7 days before it; at most 366 days. */
function heatmapRange(query: HeatmapQuery): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : new Date();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - 7 * DAY_MS);
  if (from >= to) throw new ProblemError(400, "from must be before to", { errors: { from: ["must be before to"] } });
  if (to.getTime() - from.getTime() > MAX_HEATMAP_DAYS * DAY_MS)
    throw new ProblemError(400, `Ask for at most ${MAX_HEATMAP_DAYS} days at once`, { errors: { from: [`at most ${MAX_HEATMAP_DAYS} days before to`] } });
  return { from, to };
}

/** Where tracks walked and stayed on the owner's camera over the period: the hours overlapping it, summed cell by cell. */
export async function readHeatmap(db: DB, userId: string, cameraId: string, query: HeatmapQuery): Promise<Heatmap> {
  const range = heatmapRange(query);
  if (!(await findCamera(db, userId, cameraId))) throw notFound("Camera");
  const firstHour = new Date(Math.floor(range.from.getTime() / HOUR_MS) * HOUR_MS);
  const { cells, hours } = await q.sumHeat(db, userId, cameraId, { from: firstHour, to: range.to, cols: HEAT_COLS, rows: HEAT_ROWS });
  const walk = new Array<number>(HEAT_CELLS).fill(0);
  const stay = new Array<number>(HEAT_CELLS).fill(0);
  for (const cell of cells) {
    walk[cell.i - 1] = cell.walk;
    stay[cell.i - 1] = Math.round(cell.stay * 10) / 10;
  }
  return { cols: HEAT_COLS, rows: HEAT_ROWS, walk, stay, from: range.from.toISOString(), to: range.to.toISOString(), hours };
}
