// The plane geometry tracking, lines and zones share, in normalised picture coordinates (0–1, y down).
import type { Box } from "../../schemas/vision";

export type { Box };

export interface Point {
  x: number;
  y: number;
}

/** Which point of a box stands for the object: bottom-centre (the feet, Frigate's default) unless a line or zone says otherwise. */
export type Anchor = "bottom-centre" | "centre" | "top-centre" | "left-centre" | "right-centre";

export function anchorPoint(box: Box, anchor: Anchor = "bottom-centre"): Point {
  switch (anchor) {
    case "bottom-centre":
      return { x: (box.x_min + box.x_max) / 2, y: box.y_max };
    case "centre":
      return { x: (box.x_min + box.x_max) / 2, y: (box.y_min + box.y_max) / 2 };
    case "top-centre":
      return { x: (box.x_min + box.x_max) / 2, y: box.y_min };
    case "left-centre":
      return { x: box.x_min, y: (box.y_min + box.y_max) / 2 };
    case "right-centre":
      return { x: box.x_max, y: (box.y_min + box.y_max) / 2 };
  }
}

export const boxWidth = (box: Box): number => box.x_max - box.x_min;
export const boxHeight = (box: Box): number => box.y_max - box.y_min;

export function iou(a: Box, b: Box): number {
  const w = Math.min(a.x_max, b.x_max) - Math.max(a.x_min, b.x_min);
  if (w <= 0) return 0;
  const h = Math.min(a.y_max, b.y_max) - Math.max(a.y_min, b.y_min);
  if (h <= 0) return 0;
  const overlap = w * h;
  return overlap / (boxWidth(a) * boxHeight(a) + boxWidth(b) * boxHeight(b) - overlap);
}

/**
 * Which side of the directed line a→b the point p lies on: 1 on the right as seen on screen (y down), -1 on the
 * left, 0 within `epsilon` of the line (a box resting on the line belongs to neither side).
 */
export function sideOf(p: Point, a: Point, b: Point, epsilon = 1e-9): -1 | 0 | 1 {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = Math.hypot(dx, dy) || 1;
  const distance = (dx * (p.y - a.y) - dy * (p.x - a.x)) / length; // signed distance from the line
  return distance > epsilon ? 1 : distance < -epsilon ? -1 : 0;
}

/**
 * Where the move from p to q meets the infinite line through a and b, as a fraction along a→b (0 at a, 1 at b), or
 * null when the move runs parallel to it. A crossing counts only when this is within 0…1: inside the segment.
 */
export function crossingAlong(p: Point, q: Point, a: Point, b: Point): number | null {
  const rx = q.x - p.x;
  const ry = q.y - p.y;
  const sx = b.x - a.x;
  const sy = b.y - a.y;
  const denominator = sx * ry - sy * rx; // (b − a) × (q − p): zero when parallel
  if (denominator === 0) return null;
  return ((p.x - a.x) * ry - (p.y - a.y) * rx) / denominator;
}

/** Even-odd rule, so any simple polygon drawn by dragging points works whichever way round it was drawn. */
export function insidePolygon(p: Point, polygon: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const pi = polygon[i]!;
    const pj = polygon[j]!;
    if (pi.y > p.y !== pj.y > p.y && p.x < ((pj.x - pi.x) * (p.y - pi.y)) / (pj.y - pi.y) + pi.x) inside = !inside;
  }
  return inside;
}
