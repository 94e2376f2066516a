// Where lines and zones go on the displayed picture: normalised points (0–1) to the overlay's pixels and back, a
// line's direction marker (which side is "in"), and where a zone's name sits. Pure, so the overlay only draws.
import type { Point } from "./geometry";

export interface Size {
  width: number;
  height: number;
}

export function toPixels(p: Point, size: Size): Point {
  return { x: p.x * size.width, y: p.y * size.height };
}

/** A pointer position in the overlay's pixels as a point on the picture, kept within it (0–1). */
export function fromPixels(px: number, py: number, size: Size): Point {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return { x: clamp(size.width ? px / size.width : 0), y: clamp(size.height ? py / size.height : 0) };
}

export function pixelDistance(p: Point, q: Point, size: Size): number {
  return Math.hypot((p.x - q.x) * size.width, (p.y - q.y) * size.height);
}

/**
 * A line's direction marker in pixels: the midpoint, the unit normal pointing to the side a crossing to counts as
 * "in" (the right of a → b as seen on screen, as lines.ts counts it), and the spots for the "in" and "out" words.
 * Scaling the axes never flips a side, so the side found in pixels is the side found in 0–1 coordinates.
 */
export function lineMarker(a: Point, b: Point, size: Size, offset = 28): { mid: Point; normal: Point; inAt: Point; outAt: Point } {
  const pa = toPixels(a, size);
  const pb = toPixels(b, size);
  const dx = pb.x - pa.x;
  const dy = pb.y - pa.y;
  const length = Math.hypot(dx, dy) || 1;
  const normal = { x: -dy / length, y: dx / length };
  const mid = { x: (pa.x + pb.x) / 2, y: (pa.y + pb.y) / 2 };
  return {
    mid,
    normal,
    inAt: { x: mid.x + normal.x * offset, y: mid.y + normal.y * offset },
    outAt: { x: mid.x - normal.x * offset, y: mid.y - normal.y * offset },
  };
}

/** Where a zone's name goes: its top-most point (left-most of equals), so the label sits on the zone's upper edge. */
export function zoneLabelPoint(polygon: readonly Point[]): Point {
  return polygon.reduce((best, p) => (p.y < best.y || (p.y === best.y && p.x < best.x) ? p : best), polygon[0] ?? { x: 0, y: 0 });
}
