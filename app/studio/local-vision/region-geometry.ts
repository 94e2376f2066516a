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

// A zone's shape. Zones count who is inside by an even-odd test, so a zone whose edges cross (a bow-tie, a
// pentagram) would count its middle as outside: such zones are refused, on the server (app/schemas/local-vision)
// and in the studio before sending, with the same words.
export const ZONE_NO_AREA = "A zone's points must enclose an area";
export const ZONE_EDGES_CROSS = "The zone's edges cross each other: draw its corners in order around the area";

/** Below this, a turn counts as none: points sit on 0.0001 steps, so a real turn is far larger. */
const EPSILON = 1e-12;

/** Twice the signed area (shoelace): zero for points on one line, which enclose nothing. */
export function doubledArea(points: readonly Point[]): number {
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    const q = points[(i + 1) % points.length]!;
    sum += p.x * q.y - q.x * p.y;
  }
  return sum;
}

/** Which way a → b → c turns: 1 one way, -1 the other, 0 straight on (collinear). */
function turn(a: Point, b: Point, c: Point): -1 | 0 | 1 {
  const cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  return cross > EPSILON ? 1 : cross < -EPSILON ? -1 : 0;
}

/** Whether p, known to be on the line through a and b, lies within the segment a–b (ends included). */
function withinSegment(p: Point, a: Point, b: Point): boolean {
  return Math.min(a.x, b.x) <= p.x && p.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= p.y && p.y <= Math.max(a.y, b.y);
}

/** Whether segments p–q and r–s share any point: a proper crossing, an end touching the other, or a collinear overlap. */
export function segmentsMeet(p: Point, q: Point, r: Point, s: Point): boolean {
  const d1 = turn(p, q, r);
  const d2 = turn(p, q, s);
  const d3 = turn(r, s, p);
  const d4 = turn(r, s, q);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 === 0 && withinSegment(r, p, q)) || (d2 === 0 && withinSegment(s, p, q)) || (d3 === 0 && withinSegment(p, r, s)) || (d4 === 0 && withinSegment(q, r, s));
}

const samePoint = (a: Point, b: Point) => a.x === b.x && a.y === b.y;

/**
 * Whether the path through `points` (closed back to the first when `closed`) runs into itself: two edges that are not
 * neighbours meet anywhere (crossing, touching at a corner, or overlapping), or two neighbours fold back along each
 * other (a spike). Neighbours meeting at their shared corner is how a path goes on, not a meeting. A corner placed
 * twice in a row is one corner.
 */
export function pathCrossesItself(points: readonly Point[], closed: boolean): boolean {
  const corners = points.filter((p, i) => i === 0 || !samePoint(p, points[i - 1]!));
  if (closed && corners.length > 1 && samePoint(corners[0]!, corners[corners.length - 1]!)) corners.pop();
  const n = corners.length;
  const edges = closed && n >= 3 ? n : n - 1;
  const edge = (i: number): [Point, Point] => [corners[i]!, corners[(i + 1) % n]!];
  for (let i = 0; i < edges; i++) {
    for (let j = i + 1; j < edges; j++) {
      const [a, b] = edge(i);
      const [c, d] = edge(j);
      const neighbours = j === i + 1 || (closed && i === 0 && j === edges - 1);
      if (!neighbours) {
        if (segmentsMeet(a, b, c, d)) return true;
        continue;
      }
      // Neighbours share one corner; they fold back when the other two ends lie straight on, on the same side of it.
      const [shared, before, after] = j === i + 1 ? [b, a, d] : [a, b, c];
      const folds = turn(before, shared, after) === 0 && (before.x - shared.x) * (after.x - shared.x) + (before.y - shared.y) * (after.y - shared.y) > 0;
      if (folds) return true;
    }
  }
  return false;
}

/** Whether every point lies on one line (or in one spot). */
function allOnOneLine(points: readonly Point[]): boolean {
  const first = points[0];
  const other = points.find((p) => first && !samePoint(p, first));
  return !first || !other || points.every((p) => turn(first, other, p) === 0);
}

/**
 * What is wrong with a zone's corners as a shape (three or more of them), or null when it is a proper area. Crossing
 * edges are told before a small area: a symmetric bow-tie's two halves cancel out to no area at all.
 */
export function zoneShapeProblem(polygon: readonly Point[]): string | null {
  if (allOnOneLine(polygon)) return ZONE_NO_AREA;
  if (pathCrossesItself(polygon, true)) return ZONE_EDGES_CROSS;
  if (Math.abs(doubledArea(polygon)) <= 1e-6) return ZONE_NO_AREA;
  return null;
}
