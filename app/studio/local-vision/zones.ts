// Zones with Frigate's semantics: a confirmed track enters when its anchor has been inside the polygon for `inertia`
// frames in a row and exits after as many outside; occupancy now (smoothed over a second, so one missed frame or a
// track picked up again under a new id does not make the count dip), dwell time per track, one loitering event per stay.
import { labelAllowed, type ZoneEvent } from "./events";
import { anchorPoint, insidePolygon, type Anchor, type Point } from "./geometry";
import { distanceToSegment, NEAR_DISTANCE, nearest, recordMiss, Ring, type Happening, type Miss, type NearTrack, type RegionInsight } from "./insights";
import type { Track } from "./tracker";

export interface ZoneDefinition {
  id: string;
  /** At least three points, normalised 0–1. */
  polygon: readonly Point[];
  /** Classes this zone watches; empty or missing: every class. */
  labels?: readonly string[];
  anchor?: Anchor;
  /** Frames in a row the anchor must be inside to enter, and outside to exit (Frigate's `inertia`). */
  inertia?: number;
  /** Seconds inside after which a `zone.loitering` event fires, once per stay; missing or 0: never. */
  loiterSeconds?: number;
}

export interface Occupant {
  trackId: number;
  label: string;
  enteredAt: number;
  /** Seconds since entering, as of the latest update. */
  dwellSeconds: number;
}

export interface ZoneOccupancy {
  /** How many are inside: the median of the counts over the last `OCCUPANCY_WINDOW_MS` (the higher middle one). */
  count: number;
  /** The same, per class. */
  byLabel: Record<string, number>;
  /** The tracks inside as of the latest frame. */
  occupants: Occupant[];
}

export interface ZoneWatcher {
  /** One frame's tracks (all live ones, as the tracker returns them): the zone events of this frame. */
  update(tracks: readonly Track[], at: number): ZoneEvent[];
  /** Who is in each zone now. */
  occupancy(): Record<string, ZoneOccupancy>;
  /** Replace the zones: one that keeps its id and polygon keeps its occupants; a zone removed or moved emits no exits. */
  setZones(zones: readonly ZoneDefinition[]): void;
  /** Per zone id: the tracks in or near it in the latest frame, its last events, and the near-misses with their reasons. */
  insights(): Record<string, RegionInsight>;
}

export const DEFAULT_INERTIA = 3;
/**
 * The occupancy a zone shows is the median over this long: a dip of a frame or two (a missed box, a track lost and
 * found again under a new id that must pass the inertia again) or a one-frame false track does not move it; a real
 * change shows within half of it.
 */
export const OCCUPANCY_WINDOW_MS = 1000;

interface Presence {
  label: string;
  inside: boolean;
  /** Frames in a row on the other side of `inside`, and when that run began. */
  streak: number;
  streakStartedAt: number;
  enteredAt: number;
  loitered: boolean;
  lastSeenAt: number;
  lastBox: Track["box"];
}

interface ZoneState {
  definition: ZoneDefinition;
  tracks: Map<number, Presence>;
  happenings: Ring<Happening>;
  misses: Ring<Miss>;
  /** Tracks of classes the zone does not watch that were seen inside it (each said once). */
  others: Set<number>;
  /** The frames of the last `OCCUPANCY_WINDOW_MS`, oldest first, and the occupancy by class at each (kept apart, and
   * one shared empty record for an empty zone, so a frame allocates as little as it can). */
  recentAt: number[];
  recentByLabel: Array<Readonly<Record<string, number>>>;
}

const samePolygon = (x: readonly Point[], y: readonly Point[]) => x.length === y.length && x.every((p, i) => p.x === y[i]!.x && p.y === y[i]!.y);
const seconds = (from: number, to: number) => Math.max(0, to - from) / 1000;

export function createZoneWatcher(zones: readonly ZoneDefinition[] = []): ZoneWatcher {
  let states: ZoneState[] = [];
  let latest = 0;
  let latestTracks: readonly Track[] = [];
  let lastFrameAt: number | null = null;
  let lastDetectionAt: number | null = null;

  function setZones(next: readonly ZoneDefinition[]): void {
    states = next.map((definition) => {
      const before = states.find((state) => state.definition.id === definition.id);
      const keep = before && samePolygon(before.definition.polygon, definition.polygon);
      return {
        definition,
        tracks: keep ? before.tracks : new Map(),
        happenings: before?.happenings ?? new Ring(),
        misses: before?.misses ?? new Ring(),
        others: keep ? before.others : new Set(),
        recentAt: keep ? before.recentAt : [],
        recentByLabel: keep ? before.recentByLabel : [],
      };
    });
  }

  const miss = (state: ZoneState, trackId: number, label: string, at: number, reason: Miss["reason"]) => recordMiss(state.misses, { at, trackId, label, reason });
  const happened = (state: ZoneState, event: ZoneEvent) =>
    state.happenings.push({
      at: event.at,
      trackId: event.trackId,
      label: event.label,
      what: event.type === "zone.entered" ? "entered" : event.type === "zone.exited" ? "exited" : "loitering",
    });

  function observe(state: ZoneState, track: Track, at: number, events: ZoneEvent[]): void {
    const { definition } = state;
    const inside = insidePolygon(anchorPoint(track.box, definition.anchor), definition.polygon);
    let presence = state.tracks.get(track.id);
    if (!presence) {
      presence = { label: track.label, inside: false, streak: 0, streakStartedAt: at, enteredAt: 0, loitered: false, lastSeenAt: at, lastBox: track.box };
      state.tracks.set(track.id, presence);
    }
    presence.lastSeenAt = at;
    presence.lastBox = track.box;
    const base = { zoneId: definition.id, trackId: track.id, label: track.label, at, box: { ...track.box } };
    const inertia = definition.inertia ?? DEFAULT_INERTIA;
    if (inside === presence.inside) {
      // Came in and went out again before `inertia` frames inside: not an entry.
      if (presence.streak > 0 && !inside) miss(state, track.id, track.label, at, { kind: "went-back", frames: presence.streak, needed: inertia });
      presence.streak = 0;
    } else {
      if (presence.streak === 0) presence.streakStartedAt = at;
      presence.streak++;
      if (presence.streak >= inertia) {
        presence.inside = inside;
        presence.streak = 0;
        if (inside) {
          // Dwell counts from the first frame of the run inside, not from when inertia was satisfied.
          presence.enteredAt = presence.streakStartedAt;
          presence.loitered = false;
          events.push({ type: "zone.entered", ...base });
        } else {
          events.push({ type: "zone.exited", ...base, dwellSeconds: seconds(presence.enteredAt, presence.streakStartedAt) });
        }
      }
    }
    const loiter = definition.loiterSeconds ?? 0;
    if (presence.inside && loiter > 0 && !presence.loitered && seconds(presence.enteredAt, at) >= loiter) {
      presence.loitered = true;
      events.push({ type: "zone.loitering", ...base, dwellSeconds: seconds(presence.enteredAt, at) });
    }
  }

  function update(tracks: readonly Track[], at: number): ZoneEvent[] {
    latest = at;
    const events: ZoneEvent[] = [];
    const alive = new Set<number>();
    for (const track of tracks) alive.add(track.id);
    for (const state of states) {
      const before = events.length;
      // A track the tracker gave up on leaves every zone it was in, as of when it was last seen.
      for (const [id, presence] of state.tracks) {
        if (alive.has(id)) continue;
        state.tracks.delete(id);
        if (presence.inside) {
          const { label, lastSeenAt, lastBox } = presence;
          events.push({ type: "zone.exited", zoneId: state.definition.id, trackId: id, label, at, box: { ...lastBox }, dwellSeconds: seconds(presence.enteredAt, lastSeenAt) });
        } else if (presence.streak > 0) {
          const needed = state.definition.inertia ?? DEFAULT_INERTIA;
          const { label, lastSeenAt, streak, streakStartedAt } = presence;
          miss(state, id, label, lastSeenAt, { kind: "ended-unsettled", frames: streak, needed, seconds: seconds(streakStartedAt, lastSeenAt) });
        }
      }
      for (const id of state.others) if (!alive.has(id)) state.others.delete(id);
      for (const track of tracks) {
        // Unconfirmed tracks never count; a missed track's box is a prediction and changes nothing (Frigate keeps an occluded object in its zone).
        if (!track.confirmed || track.misses > 0) continue;
        if (labelAllowed(state.definition.labels, track.label)) observe(state, track, at, events);
        else if (!state.others.has(track.id) && insidePolygon(anchorPoint(track.box, state.definition.anchor), state.definition.polygon)) {
          state.others.add(track.id);
          miss(state, track.id, track.label, at, { kind: "class" });
        }
      }
      for (const event of events.slice(before)) happened(state, event);
      remember(state, at);
    }
    latestTracks = tracks;
    lastFrameAt = at;
    if (tracks.some((t) => t.misses === 0)) lastDetectionAt = at;
    return events;
  }

  function nearTracks(definition: ZoneDefinition): NearTrack[] {
    const near: NearTrack[] = [];
    const { polygon } = definition;
    for (const track of latestTracks) {
      if (track.misses > 0) continue;
      const point = anchorPoint(track.box, definition.anchor);
      const inside = insidePolygon(point, polygon);
      const distance = Math.min(...polygon.map((p, i) => distanceToSegment(point, p, polygon[(i + 1) % polygon.length]!)));
      if (!inside && distance > NEAR_DISTANCE) continue;
      near.push({ trackId: track.id, label: track.label, where: inside ? "inside" : "outside", distance, counted: labelAllowed(definition.labels, track.label) });
    }
    return nearest(near);
  }

  /** This frame's occupancy by class, into the zone's window. */
  function remember(state: ZoneState, at: number): void {
    let byLabel: Record<string, number> | null = null;
    for (const presence of state.tracks.values()) {
      if (!presence.inside) continue;
      byLabel ??= {};
      byLabel[presence.label] = (byLabel[presence.label] ?? 0) + 1;
    }
    state.recentAt.push(at);
    state.recentByLabel.push(byLabel ?? NOBODY);
    while (state.recentAt[0]! <= at - OCCUPANCY_WINDOW_MS) {
      state.recentAt.shift();
      state.recentByLabel.shift();
    }
  }

  setZones(zones);
  return {
    update,
    setZones,
    occupancy() {
      const result: Record<string, ZoneOccupancy> = {};
      for (const { definition, tracks, recentByLabel: recent } of states) {
        const zone: ZoneOccupancy = { count: median(recent.map(sum)), byLabel: {}, occupants: [] };
        for (const label of new Set(recent.flatMap((byLabel) => Object.keys(byLabel)))) {
          const count = median(recent.map((byLabel) => byLabel[label] ?? 0));
          if (count > 0) zone.byLabel[label] = count;
        }
        for (const [trackId, presence] of tracks) {
          if (presence.inside) zone.occupants.push({ trackId, label: presence.label, enteredAt: presence.enteredAt, dwellSeconds: seconds(presence.enteredAt, latest) });
        }
        result[definition.id] = zone;
      }
      return result;
    },
    insights() {
      const result: Record<string, RegionInsight> = {};
      for (const state of states) {
        result[state.definition.id] = { near: nearTracks(state.definition), happenings: state.happenings.list(), misses: state.misses.list(), lastFrameAt, lastDetectionAt };
      }
      return result;
    },
  };
}

const NOBODY: Readonly<Record<string, number>> = Object.freeze({});
const sum = (byLabel: Readonly<Record<string, number>>) => Object.values(byLabel).reduce((total, n) => total + n, 0);

/** The middle value (the higher of the two middle ones: a count holds rather than dips); 0 for none. */
function median(values: number[]): number {
  if (values.length === 0) return 0;
  return values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
