// Line-crossing counts, as a person with a clicker counts: a track counts each time its anchor goes from one side of
// a directed segment to the other through the segment itself, in either direction, as often as it really crosses. A
// small margin either side of the line (hysteresis) keeps a box jittering on the line from counting; a track that
// ends just past the line counts, and so does one last seen walking at the line whose motion carries it across.
import { labelAllowed, type Direction, type LineCrossedEvent } from "./events";
import { anchorPoint, boxHeight, crossingAlong, sideOf, type Anchor, type Box, type Point } from "./geometry";
import { distanceToSegment, NEAR_DISTANCE, nearest, recordMiss, Ring, type Happening, type Miss, type NearTrack, type RegionInsight } from "./insights";
import { coastSeconds, DEFAULT_TRACKER_OPTIONS, type Track } from "./tracker";

export interface LineDefinition {
  id: string;
  /** The segment from `a` to `b` (normalised 0–1): crossing to its right-hand side as seen on screen is `in`. */
  a: Point;
  b: Point;
  /** Classes counted; empty or missing: every class. */
  labels?: readonly string[];
  /** The point of the box that must cross (bottom-centre: where a person stands). */
  anchor?: Anchor;
  /**
   * Detections past the line before a crossing counts (1: the first one). More rejects someone who steps over and
   * straight back, but a track that ends past the line (the person left the picture) counts whatever this is.
   */
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

export const DEFAULT_SETTLE_FRAMES = 1;
/**
 * The margin either side of the line, as a fraction of the box's height: an anchor closer to the line than this is
 * on neither side, and a crossing is complete once it is this far past. A detector's box edges jitter by a few per
 * cent of the box from frame to frame; scaled by the box, as near objects jitter by more pixels. (It was 0.1 with
 * three settle frames: people who leave the picture a second after the line were never counted.)
 */
export const LINE_HYSTERESIS = 0.05;
/**
 * Least speed across the line, in box heights per second, for a track's predicted motion to carry it over when it is
 * lost at the line: a person walking covers about a body height a second; one standing still only jitters.
 */
export const MIN_COAST_SPEED = 0.3;

interface TrackSide {
  /** The side the anchor is known to be on (1 right, -1 left); null until it is first clear of the margin. */
  side: -1 | 1 | null;
  /** The anchor's last position clear of the margin on `side`: where a crossing starts from. */
  lastPoint: Point;
  /** A crossing made (clear of the margin on the other side) but not yet counted: settling, or the track unconfirmed. */
  pending: { side: -1 | 1; frames: number; withinSegment: boolean; since: number; point: Point } | null;
  /** When the anchor came into the margin from its side (null: not in it). */
  inBand: number | null;
  label: string;
  confirmed: boolean;
  lastSeenAt: number;
  /** The latest detected anchor and box, and the track's velocity then: where a lost track's motion would take it. */
  lastAnchor: Point;
  lastBox: Box;
  velocity: Point;
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
const margin = (box: Box) => LINE_HYSTERESIS * boxHeight(box);
const within = (along: number | null) => along !== null && along >= 0 && along <= 1;

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

  /** Counts the crossing to `side` (when it was through the segment), as of `at` with `box`. */
  function count(state: LineState, id: number, known: TrackSide, side: -1 | 1, withinSegment: boolean, at: number, box: Box): LineCrossedEvent | null {
    if (!withinSegment) {
      miss(state, { id, label: known.label }, at, { kind: "beyond-ends" });
      return null;
    }
    const direction: Direction = side === 1 ? "in" : "out";
    state.counts[direction]++;
    const byLabel = (state.counts.byLabel[known.label] ??= { in: 0, out: 0 });
    byLabel[direction]++;
    state.crossings.push({ at, trackId: id, label: known.label, what: direction });
    return { type: "line.crossed", lineId: state.definition.id, trackId: id, label: known.label, direction, at, box: { ...box } };
  }

  function observe(state: LineState, track: Track, at: number): LineCrossedEvent | null {
    const { definition } = state;
    const point = anchorPoint(track.box, definition.anchor);
    const side = sideOf(point, definition.a, definition.b, margin(track.box));
    let known = state.tracks.get(track.id);
    if (!known) {
      known = {
        side: null,
        lastPoint: point,
        pending: null,
        inBand: null,
        label: track.label,
        confirmed: false,
        lastSeenAt: at,
        lastAnchor: point,
        lastBox: track.box,
        velocity: track.velocity,
      };
      state.tracks.set(track.id, known);
    }
    // Unconfirmed tracks are followed too (so a crossing made while a track was being confirmed is not lost), but
    // only a confirmed one ever counts. (Fields set one by one: this runs for every track and line, every frame.)
    known.confirmed = track.confirmed;
    known.lastSeenAt = at;
    known.lastAnchor = point;
    known.lastBox = track.box;
    known.velocity = track.velocity;
    if (side === 0) {
      // On the line, within the margin: no evidence either way.
      if (known.side !== null && known.inBand === null && !known.pending) known.inBand = at;
      return null;
    }
    if (known.side === null || side === known.side) {
      // Back before the crossing counted: someone who turned round on the line.
      const settleFrames = definition.settleFrames ?? DEFAULT_SETTLE_FRAMES;
      if (known.pending) miss(state, track, at, { kind: "went-back", frames: known.pending.frames, needed: settleFrames });
      else if (known.inBand !== null) miss(state, track, at, { kind: "neutral-band" });
      known.side = side;
      known.lastPoint = point;
      known.pending = null;
      known.inBand = null;
      return null;
    }
    known.inBand = null;
    // Judged on the move from the last point clear on the old side: crossing the line's extension never counts.
    known.pending ??= { side, frames: 0, withinSegment: within(crossingAlong(known.lastPoint, point, definition.a, definition.b)), since: at, point };
    known.pending.frames++;
    known.pending.point = point;
    if (known.pending.frames < (definition.settleFrames ?? DEFAULT_SETTLE_FRAMES) || !track.confirmed) return null;
    const { withinSegment } = known.pending;
    known.side = side;
    known.lastPoint = point;
    known.pending = null;
    return count(state, track.id, known, side, withinSegment, at, track.box);
  }

  /** A track of a class the line does not count: only noted when it crosses the segment, to say why nothing counted. */
  function observeOther(state: LineState, track: Track, at: number): void {
    const { definition } = state;
    const point = anchorPoint(track.box, definition.anchor);
    const side = sideOf(point, definition.a, definition.b, margin(track.box));
    if (side === 0) return;
    const known = state.others.get(track.id);
    if (known && known.side !== side && within(crossingAlong(known.lastPoint, point, definition.a, definition.b))) miss(state, track, at, { kind: "class" });
    state.others.set(track.id, { side, lastPoint: point });
  }

  /**
   * A track the tracker gave up on at `at`. Past the line and not yet settled: it left the picture there, which is
   * as good as settling. Last seen walking at the line: counted when its motion over the time it was kept carries it
   * clear across (a person the detector lost in the doorway); someone who stopped or turned back is not.
   */
  function ended(state: LineState, id: number, known: TrackSide, at: number): LineCrossedEvent | null {
    const track = { id, label: known.label };
    const { definition } = state;
    if (known.pending) {
      const { pending } = known;
      if (known.confirmed) return count(state, id, known, pending.side, pending.withinSegment, known.lastSeenAt, known.lastBox);
      miss(state, track, known.lastSeenAt, { kind: "unconfirmed" });
      return null;
    }
    // Gone far longer than a tracker keeps a track: detection was paused (switched off, another camera), not lost.
    const paused = at - known.lastSeenAt > 2 * DEFAULT_TRACKER_OPTIONS.maxLostMs;
    if (known.side !== null && known.confirmed && !paused) {
      const seconds = coastSeconds((at - known.lastSeenAt) / 1000);
      const dx = known.velocity.x * seconds;
      const dy = known.velocity.y * seconds;
      const to = { x: known.lastAnchor.x + dx, y: known.lastAnchor.y + dy };
      const across = distanceAcross(known.velocity, definition) * known.side;
      const fastEnough = -across >= MIN_COAST_SPEED * boxHeight(known.lastBox);
      if (fastEnough && sideOf(to, definition.a, definition.b, margin(known.lastBox)) === -known.side) {
        const box = { x_min: known.lastBox.x_min + dx, y_min: known.lastBox.y_min + dy, x_max: known.lastBox.x_max + dx, y_max: known.lastBox.y_max + dy };
        return count(state, id, known, -known.side as -1 | 1, within(crossingAlong(known.lastPoint, to, definition.a, definition.b)), at, box);
      }
    }
    if (known.inBand !== null) miss(state, track, known.lastSeenAt, { kind: "neutral-band" });
    return null;
  }

  /** How fast (picture units a second) a velocity moves a point towards the line's right-hand (`in`) side. */
  function distanceAcross(velocity: Point, { a, b }: LineDefinition): number {
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    return (dx * velocity.y - dy * velocity.x) / (Math.hypot(dx, dy) || 1);
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
        state.tracks.delete(id);
        const event = ended(state, id, known, at);
        if (event) events.push(event);
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
      const side = sideOf(point, definition.a, definition.b, margin(track.box));
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
