// What a line or zone saw lately, as plain data for its inspector: the tracks near it now, its last events, and the
// near-misses it did not count with the reason why. Kept in small bounded ring buffers by lines.ts and zones.ts.
import type { Direction } from "./events";

/** Entries kept per line or zone: enough to explain the last minute of a quiet door, never growing. */
export const INSIGHT_CAPACITY = 8;

/** Why a track that came to a line or zone was not counted. */
export type MissReason =
  /** It reached the inside of a zone but the track ended before it had settled there. (A line counts such a track.) */
  | { kind: "ended-unsettled"; frames: number; needed: number; seconds: number }
  /** It reached the other side (or the inside) and went back before settling. */
  | { kind: "went-back"; frames: number; needed: number }
  /** Its anchor came within the line's margin (on neither side), and left it on the side it came from or ended there. */
  | { kind: "neutral-band" }
  /** It crossed the line's extension, beyond one of its ends. */
  | { kind: "beyond-ends" }
  /** It crossed while the tracker had not yet confirmed it (fewer than three detections in a row). */
  | { kind: "unconfirmed" }
  /** Its class is not one the line counts or the zone watches. */
  | { kind: "class" };

export interface Miss {
  at: number;
  trackId: number;
  label: string;
  reason: MissReason;
}

/** A line's counted crossing, or a zone's event. */
export interface Happening {
  at: number;
  trackId: number;
  label: string;
  /** `in`/`out` for a line; `entered`, `exited` or `loitering` for a zone. */
  what: Direction | "entered" | "exited" | "loitering";
}

/** A track near a line (or in or near a zone) in the latest frame. */
export interface NearTrack {
  trackId: number;
  label: string;
  /** Line: the side the anchor is on (`in`, `out`) or `on the line` (in the neutral band); zone: `inside` or `outside`. */
  where: "in" | "out" | "on the line" | "inside" | "outside";
  /** Distance from the anchor to the line or the zone's edge, as a fraction of the picture's diagonal-free size (0–1 units). */
  distance: number;
  /** Whether the line or zone counts this track's class. */
  counted: boolean;
}

export interface RegionInsight {
  near: NearTrack[];
  happenings: Happening[];
  misses: Miss[];
  /** The latest frame's time, and the latest frame with any detection (null: none yet). */
  lastFrameAt: number | null;
  lastDetectionAt: number | null;
}

/** A ring of the last `capacity` entries, oldest first. */
export class Ring<T> {
  private items: T[] = [];
  constructor(private readonly capacity = INSIGHT_CAPACITY) {}
  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.capacity) this.items.shift();
  }
  /** The newest entry, so a repeat of the same miss by the same track refreshes it instead of filling the ring. */
  last(): T | undefined {
    return this.items[this.items.length - 1];
  }
  replaceLast(item: T): void {
    if (this.items.length > 0) this.items[this.items.length - 1] = item;
  }
  list(): T[] {
    return [...this.items];
  }
  clear(): void {
    this.items = [];
  }
}

/** Records a miss; the same track missing for the same reason again only moves the entry's time. */
export function recordMiss(ring: Ring<Miss>, miss: Miss): void {
  const last = ring.last();
  if (last && last.trackId === miss.trackId && last.reason.kind === miss.reason.kind) ring.replaceLast(miss);
  else ring.push(miss);
}

/** How far `p` is from the segment a–b (normalised picture units). */
export function distanceToSegment(p: { x: number; y: number }, a: { x: number; y: number }, b: { x: number; y: number }): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.min(1, Math.max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Tracks farther than this from a line or a zone's edge are not "near" it. */
export const NEAR_DISTANCE = 0.15;
/** At most this many near tracks are listed, nearest first. */
export const NEAR_MAX = 6;

export function nearest(tracks: NearTrack[]): NearTrack[] {
  return tracks.sort((x, y) => x.distance - y.distance).slice(0, NEAR_MAX);
}

/** A near-miss's reason in words, as the inspector shows it. */
export function missText(kind: "line" | "zone", miss: Miss): string {
  const { reason } = miss;
  switch (reason.kind) {
    case "ended-unsettled":
      return kind === "line"
        ? `track ended ${reason.seconds.toFixed(1)} s after reaching the line: needed ${reason.needed} settled frames, had ${reason.frames}`
        : `track ended ${reason.seconds.toFixed(1)} s after coming in: needed ${reason.needed} frames inside, had ${reason.frames}`;
    case "went-back":
      return kind === "line" ? `went back after ${reason.frames} of ${reason.needed} settled frames` : `left again after ${reason.frames} of ${reason.needed} frames inside`;
    case "neutral-band":
      return "stayed on the line (within its margin) and never got clear past it";
    case "beyond-ends":
      return "crossed beyond the line's end";
    case "unconfirmed":
      return "crossed before the tracker confirmed it";
    case "class":
      return kind === "line" ? `class ${miss.label} not counted by this line` : `class ${miss.label} not watched by this zone`;
  }
}

/** Seconds without a detection after which the inspector says so. */
export const QUIET_SECONDS = 5;

/**
 * The one-line state of a line or zone: why it may be counting nothing now, or null when tracks are near it. Quiet
 * time is measured to the latest frame (frames keep coming while the detector runs, detections or not).
 */
export function insightStatus(insight: RegionInsight | undefined, running: boolean): string | null {
  if (!running) return "Nothing is counting: switch on Local Detection (or Count People Locally).";
  if (!insight || insight.lastFrameAt === null) return "Waiting for the first frame…";
  if (insight.lastDetectionAt === null) return "No detections yet.";
  const quiet = (insight.lastFrameAt - insight.lastDetectionAt) / 1000;
  if (quiet >= QUIET_SECONDS) return `No detections for ${Math.round(quiet)} s.`;
  return insight.near.length === 0 ? "No tracks near it now." : null;
}
