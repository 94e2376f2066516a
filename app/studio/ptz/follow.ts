// PTZ auto-tracking's controller, pure (no timers, no I/O): each box-detection result in, one signed
// pan/tilt/zoom speed command out. Proportional to the subject's offset from the centre with a hysteresis
// dead zone; the speed is divided by the time between results, so the distance the camera turns per result
// stays the same whatever the detection rate (the box is from a frame 0.3–1 s old: turning further than a
// fraction of the offset per result would overshoot). No integral term; a reversal first brakes to a stop and
// halves that axis's speed from then on (the camera, or its zoom, turns faster than the speeds are tuned for).
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
 * The camera the speeds are tuned for: ~2°/s per speed unit at a 60° field of view (a PTZOptics 20X at the wide
 * end), i.e. this many frame widths per second per unit.
 */
const FRAME_PER_UNIT_SECOND = 1 / 30;
/**
 * Pan speed (1–24 units) per unit of horizontal offset per second between results: on that camera each result
 * turns it by a fifth of the offset it saw — fast enough to converge in a few results, slow enough that the
 * one-result-old picture cannot make it overshoot (a proportional loop one result late stops oscillating below ¼).
 */
export const PAN_RESPONSE = 0.2 / FRAME_PER_UNIT_SECOND;
/** Zoom: the box height may differ this much from the target before zooming starts, and stops within the inner ratio. */
export const ZOOM_BAND = { inner: 0.1, outer: 0.25 } as const;
const ZOOM_RESPONSE = 4;
const MAX_ZOOM_SPEED = 8;
/**
 * Time between results as the speed law sees it. The server's watchdog stops a drive 2 s after it was sent, so
 * no result turns the camera for longer than that (and a stalled detection loop leaves it still); the first
 * result counts as one second.
 */
const INTERVAL_MS = { min: 200, max: 2000, first: 1000 } as const;

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
  /** Learnt from overshoots: how much slower than tuned this camera (or zoom) needs to be driven. */
  gain: number;
}

/** An overshoot halves the axis's gain (down to this); each result without one wins a little back. */
const GAIN = { floor: 1 / 8, cut: 0.5, recover: 1.02 } as const;
const freshAxis = (): Axis => ({ moving: false, sign: 0, gain: 1 });

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
  private readonly axes: Record<"pan" | "tilt", Axis> = { pan: freshAxis(), tilt: freshAxis() };
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
    const pan = this.axis(this.axes.pan, c.x - 0.5, PAN_RESPONSE / seconds, FRAME_PER_UNIT_SECOND * seconds);
    // Up is positive; a vertical offset is a fraction of the height, which spans fewer degrees than the width.
    const { aspect } = this.settings;
    const tilt = this.axis(this.axes.tilt, 0.5 - c.y, PAN_RESPONSE / aspect / seconds, FRAME_PER_UNIT_SECOND * aspect * seconds);
    const zoom = this.zoomSpeed(subject.y_max - subject.y_min, pan === 0 && tilt === 0 && !this.axes.pan.moving && !this.axes.tilt.moving, seconds);
    const centred = pan === 0 && tilt === 0 && zoom === 0;
    this.status = { phase: centred ? "centred" : "following", subject };
    return { pan, tilt, zoom, recallPreset: null };
  }

  /** Forget the subject (follow switched off or on again, camera changed). */
  reset() {
    this.axes.pan = freshAxis();
    this.axes.tilt = freshAxis();
    this.zooming = false;
    this.lastAt = this.lastSeenAt = null;
    this.lastPosition = null;
    this.returned = false;
    this.status = { phase: "searching", subject: null };
  }

  private missing(at: number): FollowCommand {
    // Hold still while the subject is out of sight: driving on toward where it was would lose it further.
    for (const axis of [this.axes.pan, this.axes.tilt]) Object.assign(axis, { moving: false, sign: 0 });
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

  /**
   * One axis: hysteresis dead zone, proportional speed within 1…maxSpeed, and a stop before any reversal.
   * `slowestStep`: how far (in frame fractions) the slowest speed carries the subject before the next result
   * on the camera the speeds are tuned for.
   */
  private axis(axis: Axis, offset: number, unitsPerOffset: number, slowestStep: number): number {
    const magnitude = Math.abs(offset);
    axis.gain = Math.min(1, axis.gain * GAIN.recover);
    if (magnitude < DEAD_ZONE.inner || (!axis.moving && magnitude < DEAD_ZONE.outer)) {
      axis.moving = false;
      axis.sign = 0;
      return 0;
    }
    axis.moving = true;
    const sign = offset < 0 ? -1 : 1;
    if (axis.sign !== 0 && axis.sign !== sign) {
      // It overshot (or the picture is old): stop and look again, only start again from outside the outer edge,
      // and drive this axis slower from now on — this camera, or this zoom, turns faster than tuned for.
      axis.sign = 0;
      axis.moving = false;
      axis.gain = Math.max(GAIN.floor, axis.gain * GAIN.cut);
      return 0;
    }
    const speed = Math.max(1, Math.min(Math.round(this.settings.maxSpeed), Math.round(magnitude * unitsPerOffset * axis.gain)));
    if (speed === 1 && slowestStep / axis.gain >= magnitude + DEAD_ZONE.inner) {
      // Even the slowest speed would carry it past the far edge of the dead zone before the next result: stay.
      axis.moving = false;
      axis.sign = 0;
      return 0;
    }
    axis.sign = sign;
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
