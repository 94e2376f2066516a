// PTZ auto-tracking's controller, pure (no timers, no I/O): each box-detection result in, one signed
// pan/tilt/zoom speed command out. Proportional to the subject's offset from the centre with a hysteresis
// dead zone; the speed is divided by the time between results, so the distance the camera turns per result
// stays the same whatever the detection rate (the box is from a frame 0.3–1 s old: turning further than a
// fraction of the offset per result would overshoot). No integral term; a reversal first brakes to a stop.
import type { Box } from "../../schemas/vision";

export interface FollowSettings {
  /** Pan/tilt speed cap on the camera's 1–24 scale. */
  maxSpeed: number;
  /** Zoom to keep the subject's height near `targetHeight` (a fraction of the frame height). */
  zoom: boolean;
  targetHeight: number;
  /** Camera preset slot to recall after `lostSeconds` without the subject; null: just stop. */
  returnPreset: number | null;
  lostSeconds: number;
  /** Picture width / height: a tilt offset is a fraction of the (shorter) height, so tilt needs less speed. */
  aspect: number;
}

export const DEFAULT_FOLLOW_SETTINGS: FollowSettings = { maxSpeed: 12, zoom: false, targetHeight: 0.4, returnPreset: null, lostSeconds: 5, aspect: 16 / 9 };

/** Offsets from the centre (fractions of the frame, −0.5…0.5): start moving beyond the outer edge, stop inside the inner one. */
export const DEAD_ZONE = { inner: 0.04, outer: 0.08 } as const;
/**
 * Pan speed (1–24 units) per unit of horizontal offset per second between results. With a camera turning
 * ~2°/s per speed unit at a 60° field of view (a PTZOptics 20X at the wide end), each result turns the
 * camera by ≈ a fifth of the offset it saw: fast enough to converge in a few results, slow enough that the
 * one-result-old picture cannot make it overshoot (a delayed proportional loop stops oscillating below ¼).
 */
export const PAN_RESPONSE = 6;
/** Zoom: the box height may differ this much from the target before zooming starts, and stops within the inner ratio. */
export const ZOOM_BAND = { inner: 0.1, outer: 0.25 } as const;
const ZOOM_RESPONSE = 4;
const MAX_ZOOM_SPEED = 8;
/** Results further apart than this (a stalled loop) count as this far apart, and the first one as one second. */
const INTERVAL_MS = { min: 200, max: 3000, first: 1000 } as const;

export interface FollowCommand {
  /** Signed speeds: pan right, tilt up, zoom in positive; 0 still. */
  pan: number;
  tilt: number;
  zoom: number;
  /** Recall this preset now (once per loss). */
  recallPreset: number | null;
}

export type FollowPhase = "searching" | "following" | "centred" | "lost";

export interface FollowStatus {
  phase: FollowPhase;
  /** The box being followed this round, or null. */
  subject: Box | null;
}

interface Axis {
  moving: boolean;
  sign: -1 | 0 | 1;
}

const STILL: FollowCommand = { pan: 0, tilt: 0, zoom: 0, recallPreset: null };

const centre = (box: Box) => ({ x: (box.x_min + box.x_max) / 2, y: (box.y_min + box.y_max) / 2 });

/** The box nearest to where the subject was last seen (the frame centre before any). */
export function pickSubject(boxes: readonly Box[], last: { x: number; y: number } | null): Box | null {
  const from = last ?? { x: 0.5, y: 0.5 };
  let best: Box | null = null;
  let bestDistance = Infinity;
  for (const box of boxes) {
    const c = centre(box);
    const distance = Math.hypot(c.x - from.x, c.y - from.y);
    if (distance < bestDistance) [best, bestDistance] = [box, distance];
  }
  return best;
}

export class Follower {
  private readonly axes: Record<"pan" | "tilt", Axis> = { pan: { moving: false, sign: 0 }, tilt: { moving: false, sign: 0 } };
  private zooming = false;
  private lastAt: number | null = null;
  private lastSeenAt: number | null = null;
  private lastPosition: { x: number; y: number } | null = null;
  private returned = false;
  status: FollowStatus = { phase: "searching", subject: null };

  constructor(private settings: FollowSettings = DEFAULT_FOLLOW_SETTINGS) {}

  configure(settings: FollowSettings) {
    this.settings = settings;
  }

  /** One detection result: the boxes found (normalised 0–1) in the frame taken at `at` (ms). */
  update(boxes: readonly Box[], at: number): FollowCommand {
    const dtMs = this.lastAt === null ? INTERVAL_MS.first : Math.min(INTERVAL_MS.max, Math.max(INTERVAL_MS.min, at - this.lastAt));
    this.lastAt = at;
    const subject = pickSubject(boxes, this.lastPosition);
    if (!subject) return this.missing(at);
    this.lastSeenAt = at;
    this.returned = false;
    const c = centre(subject);
    this.lastPosition = c;
    const seconds = dtMs / 1000;
    const pan = this.axis(this.axes.pan, c.x - 0.5, PAN_RESPONSE / seconds);
    // Up is positive; a vertical offset is a fraction of the height, which spans fewer degrees than the width.
    const tilt = this.axis(this.axes.tilt, 0.5 - c.y, PAN_RESPONSE / this.settings.aspect / seconds);
    const zoom = this.zoomSpeed(subject.y_max - subject.y_min, pan === 0 && tilt === 0 && !this.axes.pan.moving && !this.axes.tilt.moving, seconds);
    const centred = pan === 0 && tilt === 0 && zoom === 0;
    this.status = { phase: centred ? "centred" : "following", subject };
    return { pan, tilt, zoom, recallPreset: null };
  }

  /** Forget the subject (follow switched off or on again, camera changed). */
  reset() {
    this.axes.pan = { moving: false, sign: 0 };
    this.axes.tilt = { moving: false, sign: 0 };
    this.zooming = false;
    this.lastAt = this.lastSeenAt = null;
    this.lastPosition = null;
    this.returned = false;
    this.status = { phase: "searching", subject: null };
  }

  private missing(at: number): FollowCommand {
    // Hold still while the subject is out of sight: driving on toward where it was would lose it further.
    this.axes.pan = { moving: false, sign: 0 };
    this.axes.tilt = { moving: false, sign: 0 };
    this.zooming = false;
    this.lastSeenAt ??= at;
    const lost = at - this.lastSeenAt >= this.settings.lostSeconds * 1000;
    if (!lost) {
      this.status = { phase: "searching", subject: null };
      return STILL;
    }
    this.status = { phase: "lost", subject: null };
    if (this.returned) return STILL;
    this.returned = true;
    // The preset puts the subject's old position meaningless: look for it from the centre again.
    this.lastPosition = null;
    return { ...STILL, recallPreset: this.settings.returnPreset };
  }

  /** One axis: hysteresis dead zone, proportional speed within 1…maxSpeed, and a stop before any reversal. */
  private axis(axis: Axis, offset: number, unitsPerOffset: number): number {
    const magnitude = Math.abs(offset);
    if (magnitude < DEAD_ZONE.inner || (!axis.moving && magnitude < DEAD_ZONE.outer)) {
      axis.moving = false;
      axis.sign = 0;
      return 0;
    }
    axis.moving = true;
    const sign = offset < 0 ? -1 : 1;
    if (axis.sign !== 0 && axis.sign !== sign) {
      // The subject is now on the other side, but this picture is old: stop first and look again.
      axis.sign = 0;
      return 0;
    }
    axis.sign = sign;
    const speed = Math.max(1, Math.min(Math.round(this.settings.maxSpeed), Math.round(magnitude * unitsPerOffset)));
    return sign * speed;
  }

  private zoomSpeed(height: number, centred: boolean, seconds: number): number {
    if (!this.settings.zoom || height <= 0) return 0;
    const ratio = this.settings.targetHeight / height; // > 1: too small, zoom in
    const error = Math.abs(Math.log(ratio));
    const band = this.zooming ? Math.log(1 + ZOOM_BAND.inner) : Math.log(1 + ZOOM_BAND.outer);
    // Zoom in only while centred (zooming in on an off-centre subject pushes it out of the frame); out at any time.
    if (error < band || (ratio > 1 && !centred)) {
      this.zooming = false;
      return 0;
    }
    this.zooming = true;
    const speed = Math.max(1, Math.min(MAX_ZOOM_SPEED, Math.round((error * ZOOM_RESPONSE) / seconds)));
    return ratio > 1 ? speed : -speed;
  }
}
