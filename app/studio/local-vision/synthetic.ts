// Synthetic detections for the local-vision tests and benchmark: objects walking straight lines at a steady frame rate.
import type { Box, Point } from "./geometry";
import { seededRandom } from "../../image/test-data";
import type { Detection, Track } from "./tracker";

export const FRAME_MS = 100;

/** A box of size w×h whose bottom-centre (the feet) is at `feet`. */
export function boxAt(feet: Point, w = 0.06, h = 0.2): Box {
  return { x_min: feet.x - w / 2, y_min: feet.y - h, x_max: feet.x + w / 2, y_max: feet.y };
}

/** The bottom-centre of an object walking from `from` to `to` in `frames` steps, at frame `i` (0…frames-1, clamped). */
export function walk(from: Point, to: Point, frames: number, i: number): Point {
  const t = frames <= 1 ? 1 : Math.min(1, Math.max(0, i / (frames - 1)));
  return { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t };
}

export function detection(feet: Point, label = "person", score = 0.9, w?: number, h?: number): Detection {
  return { box: boxAt(feet, w, h), score, label };
}

/** A track as the tracker would report it, made by hand to drive the line counter or zone watcher frame by frame. */
export function trackAt(id: number, feet: Point, options: Partial<Track> = {}): Track {
  return {
    id,
    label: "person",
    box: boxAt(feet),
    score: 0.9,
    confirmed: true,
    hits: 5,
    misses: 0,
    age: 5,
    velocity: { x: 0, y: 0 },
    firstSeenAt: 0,
    lastSeenAt: 0,
    ...options,
  };
}

export function crowd(count: number, frames: number, seed = 1): Detection[][] {
  const next = seededRandom(seed);
  const labels = ["person", "person", "person", "car", "bicycle"];
  const objects = Array.from({ length: count }, (_, i) => ({
    x: next() * 0.9,
    y: next() * 0.8,
    vx: (next() - 0.5) * 0.02,
    vy: (next() - 0.5) * 0.02,
    w: 0.03 + next() * 0.04,
    h: 0.08 + next() * 0.1,
    label: labels[i % labels.length]!,
  }));
  const result: Detection[][] = [];
  for (let f = 0; f < frames; f++) {
    const detections: Detection[] = [];
    for (const o of objects) {
      o.x += o.vx;
      o.y += o.vy;
      if (o.x < 0 || o.x + o.w > 1) o.vx = -o.vx;
      if (o.y < 0 || o.y + o.h > 1) o.vy = -o.vy;
      const roll = next();
      if (roll < 0.03) continue; // missed by the detector this frame
      const jitter = () => (next() - 0.5) * 0.004;
      const x = o.x + jitter();
      const y = o.y + jitter();
      detections.push({ box: { x_min: x, y_min: y, x_max: x + o.w, y_max: y + o.h }, score: roll < 0.15 ? 0.3 : 0.6 + next() * 0.4, label: o.label });
    }
    result.push(detections);
  }
  return result;
}
