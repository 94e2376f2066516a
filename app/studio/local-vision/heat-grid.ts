// Where people go (issue 31), as a coarse grid over the picture rather than anyone's path: each processed frame's
// confirmed tracks add to the cell under their anchor (bottom-centre, the feet, as lines and zones use). "Walk" is
// how many times a track entered a cell (passes), "stay" the seconds tracks spent in it. One grid holds one UTC
// hour, the unit the server keeps (vision_heat); the studio's tracker in the browser and the server's pipeline feed
// the same code. Bounded memory and no garbage per frame: typed arrays for the cells, and one reused record per
// live track.
import type { Track } from "./tracker";

/** Cells across and down: 16:9 like most cameras, so a cell is about square; 576 cells, a few KB on the wire. */
export const HEAT_COLS = 32;
export const HEAT_ROWS = 18;
export const HEAT_CELLS = HEAT_COLS * HEAT_ROWS;
const HOUR_MS = 3_600_000;
/**
 * A track's time between two frames counts as stay up to this much: a longer gap (the tab hidden, the detector
 * busy, the track lost and kept on its prediction) says nothing of where the person was meanwhile.
 */
export const MAX_STAY_STEP_MS = 2_000;
/** Live tracks followed at once; beyond this a crowd's extra tracks are left out rather than memory growing. */
export const MAX_HEAT_TRACKS = 512;

/** One hour's grid as it is sent and stored: cells row by row from the top left (index = row × cols + col). */
export interface HeatSnapshot {
  /** The start of the UTC hour the grid covers, Unix milliseconds. */
  hour: number;
  cols: typeof HEAT_COLS;
  rows: typeof HEAT_ROWS;
  /** Passes: times a track entered the cell. */
  walk: number[];
  /** Seconds tracks spent in the cell (to the hundredth). */
  stay: number[];
}

export interface HeatGrid {
  /**
   * One processed frame: `at` in Unix milliseconds (increasing), `tracks` as the tracker gives them (only confirmed
   * ones seen in this frame, of the watched classes, count). Returns the previous hour's grid when `at` starts a new
   * hour and the grid held something (the caller sends it on); null otherwise.
   */
  update(tracks: readonly Track[], at: number): HeatSnapshot | null;
  /** What the grid holds so far (null when nothing), and starts it empty; tracks go on where they are. */
  take(): HeatSnapshot | null;
}

export interface HeatGridOptions {
  /** Classes counted; empty: every class. People by default. */
  labels?: readonly string[];
}

/** Where a live track was last counted. */
interface Seen {
  cell: number;
  at: number;
  /** The update that last saw it: records not seen in the latest update are dropped. */
  tick: number;
}

export const hourOf = (at: number): number => Math.floor(at / HOUR_MS) * HOUR_MS;

/** The cell under a point in picture fractions (0–1, y down), edges clamped into the grid. */
export function cellOf(x: number, y: number, cols = HEAT_COLS, rows = HEAT_ROWS): number {
  const col = Math.min(cols - 1, Math.max(0, Math.floor(x * cols)));
  const row = Math.min(rows - 1, Math.max(0, Math.floor(y * rows)));
  return row * cols + col;
}

export function createHeatGrid(options: HeatGridOptions = {}): HeatGrid {
  const labels = new Set(options.labels ?? ["person"]);
  const counted = (label: string) => labels.size === 0 || labels.has(label);
  const walk = new Uint32Array(HEAT_CELLS);
  // Milliseconds, exact for any hour's worth of frames.
  const stayMs = new Float64Array(HEAT_CELLS);
  const seen = new Map<number, Seen>();
  let hour: number | null = null;
  let holds = false;
  let tick = 0;

  function take(): HeatSnapshot | null {
    if (!holds || hour === null) return null;
    const snapshot: HeatSnapshot = { hour, cols: HEAT_COLS, rows: HEAT_ROWS, walk: Array.from(walk), stay: Array.from(stayMs, (ms) => Math.round(ms / 10) / 100) };
    walk.fill(0);
    stayMs.fill(0);
    holds = false;
    return snapshot;
  }

  // Defined once, so dropping gone tracks allocates no callback per frame.
  const dropGone = (record: Seen, id: number) => {
    if (record.tick !== tick) seen.delete(id);
  };

  return {
    update(tracks, at) {
      const now = hourOf(at);
      const finished = hour !== null && now !== hour ? take() : null;
      hour = now;
      tick++;
      for (let i = 0; i < tracks.length; i++) {
        const track = tracks[i]!;
        // A missed track's box is the motion model's guess: it moves no one (as lines do not count it either).
        if (!track.confirmed || track.misses > 0 || !counted(track.label)) continue;
        // The bottom-centre (geometry.ts anchorPoint's default), spelled out so no point is made per track and frame.
        const cell = cellOf((track.box.x_min + track.box.x_max) / 2, track.box.y_max);
        let record = seen.get(track.id);
        if (!record) {
          if (seen.size >= MAX_HEAT_TRACKS) continue;
          record = { cell, at, tick };
          seen.set(track.id, record);
          walk[cell]!++;
        } else {
          const step = at - record.at;
          // The time since its last frame was spent where it was then, up to where it is now: counted in the cell it left.
          if (step > 0 && step <= MAX_STAY_STEP_MS) stayMs[record.cell]! += step;
          if (cell !== record.cell) walk[cell]!++;
          record.cell = cell;
          record.at = at;
          record.tick = tick;
        }
        holds = true;
      }
      // Tracks kept through a few missed frames keep their record (so coming back in the same cell is no new pass).
      for (let i = 0; i < tracks.length; i++) {
        const record = seen.get(tracks[i]!.id);
        if (record) record.tick = tick;
      }
      seen.forEach(dropGone);
      return finished;
    },
    take,
  };
}

/** Adds one grid into another of the same size, cell by cell (the server's sum over hours, the tests' sums). */
export function addInto(target: { walk: number[]; stay: number[] }, source: { walk: readonly number[]; stay: readonly number[] }): void {
  for (let i = 0; i < target.walk.length; i++) {
    target.walk[i]! += source.walk[i] ?? 0;
    target.stay[i]! += source.stay[i] ?? 0;
  }
}
