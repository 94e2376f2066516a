// Line-crossing counts: a confirmed track counts once per direction when its anchor crosses a directed segment
// within the segment's extent and stays on the other side for a few frames, so jitter on the line never double-counts.
import { labelAllowed, type Direction, type LineCrossedEvent } from "./events";
import { anchorPoint, crossingAlong, sideOf, type Anchor, type Point } from "./geometry";
import type { Track } from "./tracker";

export interface LineDefinition {
  id: string;
  /** The segment from `a` to `b` (normalised 0–1): crossing to its right-hand side as seen on screen is `in`. */
  a: Point;
  b: Point;
  /** Classes counted; empty or missing: every class. */
  labels?: readonly string[];
  /** The point of the box that must cross (bottom-centre: where a person stands). */
  anchor?: Anchor;
  /** Frames the anchor must stay on the new side before the crossing counts (k). */
  settleFrames?: number;
}

export interface DirectionCounts {
  in: number;
  out: number;
}

export interface LineCounts extends DirectionCounts {
  byLabel: Record<string, DirectionCounts>;
}

export interface LineCounter {
  /** One frame's tracks (all live ones, as the tracker returns them): the crossings this frame completed. */
  update(tracks: readonly Track[], at: number): LineCrossedEvent[];
  /** Counts per line id since the start or the line's last reset. */
  counts(): Record<string, LineCounts>;
  /** Zero one line's counts (or every line's). */
  reset(lineId?: string): void;
  /** Replace the lines: a line that keeps its id and points keeps its counts and what it knows of each track. */
  setLines(lines: readonly LineDefinition[]): void;
}

export const DEFAULT_SETTLE_FRAMES = 3;
/**
 * An anchor closer to the line than this fraction of its box's height is on neither side. A detector's box edges
 * jitter by a few per cent of the box from frame to frame, so a person standing on the line would otherwise settle on
 * one side and then the other (an `in` and a false `out`); scaled by the box, as near objects jitter by more pixels.
 */
export const LINE_BAND = 0.1;

interface TrackSide {
  /** The side the anchor is known to be on (1 right, -1 left). */
  settled: -1 | 1;
  /** The anchor's last position on the settled side: where a crossing starts from. */
  lastPoint: Point;
  /** The other side, while the anchor has not yet stayed there `settleFrames` frames. */
  pending: { side: -1 | 1; frames: number; withinSegment: boolean } | null;
  counted: { in: boolean; out: boolean };
}

interface LineState {
  definition: LineDefinition;
  tracks: Map<number, TrackSide>;
  counts: LineCounts;
}

const emptyCounts = (): LineCounts => ({ in: 0, out: 0, byLabel: {} });
const samePoints = (x: LineDefinition, y: LineDefinition) => x.a.x === y.a.x && x.a.y === y.a.y && x.b.x === y.b.x && x.b.y === y.b.y;

export function createLineCounter(lines: readonly LineDefinition[] = []): LineCounter {
  let states: LineState[] = [];

  function setLines(next: readonly LineDefinition[]): void {
    states = next.map((definition) => {
      const before = states.find((state) => state.definition.id === definition.id);
      if (!before) return { definition, tracks: new Map(), counts: emptyCounts() };
      // Moved points make the known sides meaningless; the counts so far stay.
      return { definition, tracks: samePoints(before.definition, definition) ? before.tracks : new Map(), counts: before.counts };
    });
  }

  function observe(state: LineState, track: Track, at: number): LineCrossedEvent | null {
    const { definition } = state;
    const point = anchorPoint(track.box, definition.anchor);
    const side = sideOf(point, definition.a, definition.b, LINE_BAND * track.box.h);
    if (side === 0) return null; // on the line: neither side, no evidence either way
    const known = state.tracks.get(track.id);
    // Unconfirmed tracks are followed too (so a crossing made while a track was being confirmed is not lost), but
    // only a confirmed one ever counts.
    if (!known) {
      state.tracks.set(track.id, { settled: side, lastPoint: point, pending: null, counted: { in: false, out: false } });
      return null;
    }
    if (side === known.settled) {
      known.pending = null; // back before settling: jitter on the line
      known.lastPoint = point;
      return null;
    }
    if (!known.pending) {
      // Judged on the move that left the settled side: crossing the infinite line beyond the segment's ends never counts.
      const along = crossingAlong(known.lastPoint, point, definition.a, definition.b);
      known.pending = { side, frames: 0, withinSegment: along !== null && along >= 0 && along <= 1 };
    }
    known.pending.frames++;
    if (known.pending.frames < (definition.settleFrames ?? DEFAULT_SETTLE_FRAMES)) return null;
    const { withinSegment } = known.pending;
    known.settled = side;
    known.lastPoint = point;
    known.pending = null;
    const direction: Direction = side === 1 ? "in" : "out";
    if (!withinSegment || !track.confirmed || known.counted[direction]) return null;
    known.counted[direction] = true;
    state.counts[direction]++;
    const byLabel = (state.counts.byLabel[track.label] ??= { in: 0, out: 0 });
    byLabel[direction]++;
    return { type: "line.crossed", lineId: definition.id, trackId: track.id, label: track.label, direction, at, box: { ...track.box } };
  }

  function update(tracks: readonly Track[], at: number): LineCrossedEvent[] {
    const events: LineCrossedEvent[] = [];
    const alive = new Set<number>();
    for (const track of tracks) alive.add(track.id);
    for (const state of states) {
      for (const id of state.tracks.keys()) if (!alive.has(id)) state.tracks.delete(id);
      for (const track of tracks) {
        // A missed track's box is only a prediction: it moves no anchor across a line.
        if (track.misses > 0 || !labelAllowed(state.definition.labels, track.label)) continue;
        const event = observe(state, track, at);
        if (event) events.push(event);
      }
    }
    return events;
  }

  setLines(lines);
  return {
    update,
    setLines,
    counts() {
      const result: Record<string, LineCounts> = {};
      for (const { definition, counts } of states) result[definition.id] = structuredClone(counts);
      return result;
    },
    reset(lineId) {
      for (const state of states) if (lineId === undefined || state.definition.id === lineId) state.counts = emptyCounts();
    },
  };
}
