// Line-crossing counts: a confirmed track counts once per direction when its anchor crosses a directed segment
// within the segment's extent and stays on the other side for a few frames, so jitter on the line never double-counts.
import { labelAllowed, type Direction, type LineCrossedEvent } from "./events";
import { anchorPoint, boxHeight, crossingAlong, sideOf, type Anchor, type Point } from "./geometry";
import { distanceToSegment, NEAR_DISTANCE, nearest, recordMiss, Ring, type Happening, type Miss, type NearTrack, type RegionInsight } from "./insights";
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
  /** Per line id: the tracks near it in the latest frame, its last crossings, and the near-misses with their reasons. */
  insights(): Record<string, RegionInsight>;
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
  pending: { side: -1 | 1; frames: number; withinSegment: boolean; since: number } | null;
  counted: { in: boolean; out: boolean };
  /** When the anchor came into the neutral band from the settled side (null: not in it). */
  inBand: number | null;
  label: string;
  lastSeenAt: number;
}

interface LineState {
  definition: LineDefinition;
  tracks: Map<number, TrackSide>;
  /** Tracks of classes the line does not count, followed only to say why they were not counted. */
  others: Map<number, { side: -1 | 1; lastPoint: Point }>;
  counts: LineCounts;
  crossings: Ring<Happening>;
  misses: Ring<Miss>;
}

const emptyCounts = (): LineCounts => ({ in: 0, out: 0, byLabel: {} });
const samePoints = (x: LineDefinition, y: LineDefinition) => x.a.x === y.a.x && x.a.y === y.a.y && x.b.x === y.b.x && x.b.y === y.b.y;

export function createLineCounter(lines: readonly LineDefinition[] = []): LineCounter {
  let states: LineState[] = [];

  function setLines(next: readonly LineDefinition[]): void {
    states = next.map((definition) => {
      const before = states.find((state) => state.definition.id === definition.id);
      if (!before) return { definition, tracks: new Map(), others: new Map(), counts: emptyCounts(), crossings: new Ring(), misses: new Ring() };
      // Moved points make the known sides meaningless; the counts so far (and what the inspector showed) stay.
      const same = samePoints(before.definition, definition);
      return { ...before, definition, tracks: same ? before.tracks : new Map(), others: same ? before.others : new Map() };
    });
  }

  const miss = (state: LineState, track: Pick<Track, "id" | "label">, at: number, reason: Miss["reason"]) =>
    recordMiss(state.misses, { at, trackId: track.id, label: track.label, reason });

  function observe(state: LineState, track: Track, at: number): LineCrossedEvent | null {
    const { definition } = state;
    const point = anchorPoint(track.box, definition.anchor);
    const side = sideOf(point, definition.a, definition.b, LINE_BAND * boxHeight(track.box));
    const known = state.tracks.get(track.id);
    if (known) known.lastSeenAt = at;
    if (side === 0) {
      // On the line: neither side, no evidence either way.
      if (known && known.inBand === null && !known.pending) known.inBand = at;
      return null;
    }
    // Unconfirmed tracks are followed too (so a crossing made while a track was being confirmed is not lost), but
    // only a confirmed one ever counts.
    if (!known) {
      state.tracks.set(track.id, { settled: side, lastPoint: point, pending: null, counted: { in: false, out: false }, inBand: null, label: track.label, lastSeenAt: at });
      return null;
    }
    const settleFrames = definition.settleFrames ?? DEFAULT_SETTLE_FRAMES;
    if (side === known.settled) {
      // Back before settling: jitter on the line, or someone who turned round on it.
      if (known.pending) miss(state, track, at, { kind: "went-back", frames: known.pending.frames, needed: settleFrames });
      else if (known.inBand !== null) miss(state, track, at, { kind: "neutral-band" });
      known.pending = null;
      known.inBand = null;
      known.lastPoint = point;
      return null;
    }
    known.inBand = null;
    if (!known.pending) {
      // Judged on the move that left the settled side: crossing the infinite line beyond the segment's ends never counts.
      const along = crossingAlong(known.lastPoint, point, definition.a, definition.b);
      known.pending = { side, frames: 0, withinSegment: along !== null && along >= 0 && along <= 1, since: at };
    }
    known.pending.frames++;
    if (known.pending.frames < settleFrames) return null;
    const { withinSegment } = known.pending;
    known.settled = side;
    known.lastPoint = point;
    known.pending = null;
    const direction: Direction = side === 1 ? "in" : "out";
    const notCounted: Miss["reason"] | null = !withinSegment
      ? { kind: "beyond-ends" }
      : !track.confirmed
        ? { kind: "unconfirmed" }
        : known.counted[direction]
          ? { kind: "already-counted", direction }
          : null;
    if (notCounted) {
      miss(state, track, at, notCounted);
      return null;
    }
    known.counted[direction] = true;
    state.counts[direction]++;
    const byLabel = (state.counts.byLabel[track.label] ??= { in: 0, out: 0 });
    byLabel[direction]++;
    state.crossings.push({ at, trackId: track.id, label: track.label, what: direction });
    return { type: "line.crossed", lineId: definition.id, trackId: track.id, label: track.label, direction, at, box: { ...track.box } };
  }

  /** A track of a class the line does not count: only noted when it crosses the segment, to say why nothing counted. */
  function observeOther(state: LineState, track: Track, at: number): void {
    const { definition } = state;
    const point = anchorPoint(track.box, definition.anchor);
    const side = sideOf(point, definition.a, definition.b, LINE_BAND * boxHeight(track.box));
    if (side === 0) return;
    const known = state.others.get(track.id);
    if (known && known.side !== side) {
      const along = crossingAlong(known.lastPoint, point, definition.a, definition.b);
      if (along !== null && along >= 0 && along <= 1) miss(state, track, at, { kind: "class" });
    }
    state.others.set(track.id, { side, lastPoint: point });
  }

  /** A track the tracker gave up on: if it was part way over the line, that is why it did not count. */
  function ended(state: LineState, id: number, known: TrackSide): void {
    const track = { id, label: known.label };
    const settleFrames = state.definition.settleFrames ?? DEFAULT_SETTLE_FRAMES;
    if (known.pending) {
      const seconds = Math.max(0, known.lastSeenAt - known.pending.since) / 1000;
      miss(state, track, known.lastSeenAt, { kind: "ended-unsettled", frames: known.pending.frames, needed: settleFrames, seconds });
    } else if (known.inBand !== null) miss(state, track, known.lastSeenAt, { kind: "neutral-band" });
  }

  let latest: readonly Track[] = [];
  let lastFrameAt: number | null = null;
  let lastDetectionAt: number | null = null;

  function update(tracks: readonly Track[], at: number): LineCrossedEvent[] {
    latest = tracks;
    lastFrameAt = at;
    if (tracks.some((t) => t.misses === 0)) lastDetectionAt = at;
    const events: LineCrossedEvent[] = [];
    const alive = new Set<number>();
    for (const track of tracks) alive.add(track.id);
    for (const state of states) {
      for (const [id, known] of state.tracks) {
        if (alive.has(id)) continue;
        ended(state, id, known);
        state.tracks.delete(id);
      }
      for (const id of state.others.keys()) if (!alive.has(id)) state.others.delete(id);
      for (const track of tracks) {
        // A missed track's box is only a prediction: it moves no anchor across a line.
        if (track.misses > 0) continue;
        if (!labelAllowed(state.definition.labels, track.label)) {
          observeOther(state, track, at);
          continue;
        }
        const event = observe(state, track, at);
        if (event) events.push(event);
      }
    }
    return events;
  }

  function nearTracks(definition: LineDefinition): NearTrack[] {
    const near: NearTrack[] = [];
    for (const track of latest) {
      if (track.misses > 0) continue;
      const point = anchorPoint(track.box, definition.anchor);
      const distance = distanceToSegment(point, definition.a, definition.b);
      if (distance > NEAR_DISTANCE) continue;
      const side = sideOf(point, definition.a, definition.b, LINE_BAND * boxHeight(track.box));
      const where = side === 1 ? "in" : side === -1 ? "out" : "on the line";
      near.push({ trackId: track.id, label: track.label, where, distance, counted: labelAllowed(definition.labels, track.label) });
    }
    return nearest(near);
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
      for (const state of states) {
        if (lineId !== undefined && state.definition.id !== lineId) continue;
        state.counts = emptyCounts();
        state.crossings.clear();
        state.misses.clear();
      }
    },
    insights() {
      const result: Record<string, RegionInsight> = {};
      for (const state of states) {
        result[state.definition.id] = { near: nearTracks(state.definition), happenings: state.crossings.list(), misses: state.misses.list(), lastFrameAt, lastDetectionAt };
      }
      return result;
    },
  };
}
