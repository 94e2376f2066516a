// The pipeline's heat grid (where people go, issue 31): every scene step's tracks go into the studio's own grid
// (app/studio/local-vision/heat-grid.ts), and what it holds is added to the camera's hour in vision_heat about once a
// minute, when an hour ends, and when the pipeline stops. Grids that could not be saved (the database restarting)
// are tried again at the next flush, a day's worth at most.
import type { Logger } from "pino";
import { createHeatGrid, type HeatSnapshot } from "#app/studio/local-vision/heat-grid";
import type { Track } from "#app/studio/local-vision/tracker";

/** How often the grid is written, in the frames' time: at most this much of the heat is lost if the process dies. */
export const HEAT_FLUSH_MS = 60_000;
/** Unsaved grids kept while the database is away (a day of flushes), oldest dropped first. */
const MAX_PENDING_GRIDS = 24 * 60;

export interface HeatRecorder {
  /** One scene step: its tracks at `at` (Unix milliseconds). */
  onFrame(tracks: readonly Track[], at: number): void;
  /** Writes what the grid holds and waits for every write under way. */
  close(): Promise<void>;
}

export function createHeatRecorder(labels: readonly string[], save: (heat: HeatSnapshot) => Promise<void>, log: Logger): HeatRecorder {
  const grid = createHeatGrid({ labels });
  let pending: HeatSnapshot[] = [];
  let flushedAt: number | null = null;
  let writing = false;
  let saving: Promise<void> = Promise.resolve();

  function flush(): void {
    const current = grid.take();
    if (current) pending.push(current);
    if (pending.length > MAX_PENDING_GRIDS) pending = pending.slice(-MAX_PENDING_GRIDS);
    if (writing || pending.length === 0) return;
    writing = true;
    saving = saving.then(async () => {
      while (pending.length > 0) {
        try {
          await save(pending[0]!);
          pending.shift();
        } catch (error) {
          log.warn({ err: error, grids: pending.length }, "could not save the local-vision pipeline's heat grid; trying again at the next flush");
          break;
        }
      }
      writing = false;
    });
  }

  return {
    onFrame(tracks, at) {
      const finished = grid.update(tracks, at);
      if (finished) pending.push(finished);
      flushedAt ??= at;
      if (finished || at - flushedAt >= HEAT_FLUSH_MS) {
        flushedAt = at;
        flush();
      }
    },
    async close() {
      await saving;
      flush();
      await saving;
    },
  };
}
