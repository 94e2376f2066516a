import { describe, expect, it } from "vitest";
import { sideOf } from "./geometry";
import { fromPixels, lineMarker, pathCrossesItself, pixelDistance, toPixels, ZONE_EDGES_CROSS, ZONE_NO_AREA, zoneLabelPoint, zoneShapeProblem } from "./region-geometry";

const size = { width: 800, height: 450 };

describe("region geometry on the displayed picture", () => {
  it("maps points to pixels and pointer positions back, kept on the picture", () => {
    expect(toPixels({ x: 0.5, y: 0.2 }, size)).toEqual({ x: 400, y: 90 });
    expect(fromPixels(400, 90, size)).toEqual({ x: 0.5, y: 0.2 });
    expect(fromPixels(-20, 500, size)).toEqual({ x: 0, y: 1 });
    expect(pixelDistance({ x: 0, y: 0 }, { x: 0.1, y: 0 }, size)).toBeCloseTo(80);
  });

  it("puts the line's 'in' mark on the side lines.ts counts as in, whatever the picture's aspect", () => {
    for (const [a, b] of [
      [
        { x: 0.5, y: 0 },
        { x: 0.5, y: 1 },
      ],
      [
        { x: 0.1, y: 0.3 },
        { x: 0.9, y: 0.6 },
      ],
      [
        { x: 0.9, y: 0.9 },
        { x: 0.2, y: 0.1 },
      ],
    ]) {
      for (const picture of [size, { width: 300, height: 900 }]) {
        const { inAt, outAt, mid } = lineMarker(a!, b!, picture);
        expect(sideOf(fromPixels(inAt.x, inAt.y, picture), a!, b!)).toBe(1);
        expect(sideOf(fromPixels(outAt.x, outAt.y, picture), a!, b!)).toBe(-1);
        const expected = toPixels({ x: (a!.x + b!.x) / 2, y: (a!.y + b!.y) / 2 }, picture);
        expect(mid.x).toBeCloseTo(expected.x);
        expect(mid.y).toBeCloseTo(expected.y);
      }
    }
  });

  it("labels a zone at its top-most point", () => {
    expect(
      zoneLabelPoint([
        { x: 0.6, y: 0.5 },
        { x: 0.2, y: 0.1 },
        { x: 0.1, y: 0.1 },
        { x: 0.3, y: 0.9 },
      ]),
    ).toEqual({ x: 0.1, y: 0.1 });
  });
});

/** Points from "x,y x,y …". */
const pts = (text: string) => text.split(" ").map((pair) => ({ x: Number(pair.split(",")[0]), y: Number(pair.split(",")[1]) }));
/** The same polygon starting at each of its corners, both ways round: the answer must not depend on either. */
const everyWayRound = (polygon: ReturnType<typeof pts>) =>
  polygon.flatMap((_, i) => [[...polygon.slice(i), ...polygon.slice(0, i)], [...polygon.slice(i), ...polygon.slice(0, i)].reverse()]);

describe("a zone's shape", () => {
  const pentagram = [0, 2, 4, 1, 3].map((k) => ({ x: 0.5 + 0.4 * Math.sin((k * 2 * Math.PI) / 5), y: 0.5 - 0.4 * Math.cos((k * 2 * Math.PI) / 5) }));
  const pentagon = [0, 1, 2, 3, 4].map((k) => ({ x: 0.5 + 0.4 * Math.sin((k * 2 * Math.PI) / 5), y: 0.5 - 0.4 * Math.cos((k * 2 * Math.PI) / 5) }));

  it("takes convex and concave zones whose edges never meet except at their shared corners", () => {
    for (const polygon of [
      pts("0.1,0.1 0.9,0.1 0.5,0.9"), // triangle
      pts("0.1,0.1 0.9,0.1 0.9,0.9 0.1,0.9"), // square
      pentagon,
      pts("0.1,0.1 0.9,0.1 0.9,0.9 0.5,0.3 0.1,0.9"), // concave: a deep notch
      pts("0.1,0.1 0.5,0.1 0.9,0.1 0.9,0.9 0.1,0.9"), // a corner straight on along an edge
      pts("0.1,0.1 0.9,0.1 0.9,0.1 0.5,0.9"), // a corner placed twice is one corner
    ]) {
      for (const shape of everyWayRound(polygon)) expect(zoneShapeProblem(shape)).toBeNull();
    }
  });

  it("refuses a bow-tie and a pentagram: their edges cross", () => {
    for (const polygon of [pts("0.1,0.1 0.9,0.9 0.9,0.1 0.1,0.9"), pentagram]) {
      for (const shape of everyWayRound(polygon)) expect(zoneShapeProblem(shape)).toBe(ZONE_EDGES_CROSS);
    }
  });

  it("refuses a corner touching another edge, two loops sharing a corner, and edges folding back or overlapping", () => {
    for (const polygon of [
      pts("0.1,0.1 0.9,0.1 0.9,0.9 0.5,0.1 0.1,0.9"), // a corner resting on the top edge, from below
      pts("0.1,0.1 0.5,0.5 0.9,0.1 0.9,0.9 0.5,0.5 0.1,0.9"), // an hourglass pinched to one corner
      pts("0.1,0.1 0.9,0.1 0.9,0.9 0.1,0.9 0.1,0.5 0.6,0.5 0.3,0.5"), // a spike: out along a line and back
      pts("0.1,0.1 0.9,0.1 0.9,0.9 0.7,0.1 0.3,0.1 0.1,0.9"), // an edge lying along part of another
    ]) {
      for (const shape of everyWayRound(polygon)) expect(zoneShapeProblem(shape)).toBe(ZONE_EDGES_CROSS);
    }
  });

  it("refuses corners on one line or all in one spot: no area", () => {
    expect(zoneShapeProblem(pts("0,0 0.5,0.5 1,1"))).toBe(ZONE_NO_AREA);
    expect(zoneShapeProblem(pts("0.2,0.2 0.2,0.2 0.2,0.2"))).toBe(ZONE_NO_AREA);
    expect(zoneShapeProblem(pts("0.1,0.1 0.9,0.1 0.5,0.1 0.3,0.1"))).toBe(ZONE_NO_AREA);
  });

  it("checks an open path too, while its corners are placed", () => {
    expect(pathCrossesItself(pts("0.1,0.1 0.9,0.9 0.9,0.1"), false)).toBe(false);
    expect(pathCrossesItself(pts("0.1,0.1 0.9,0.9 0.9,0.1 0.1,0.9"), false)).toBe(true);
    // Open, the bow-tie's last corner closes nothing: only the closing edge (back to the first) would cross.
    expect(pathCrossesItself(pts("0.1,0.1 0.9,0.1 0.1,0.9 0.9,0.9"), false)).toBe(false);
    expect(pathCrossesItself(pts("0.1,0.1 0.9,0.1 0.1,0.9 0.9,0.9"), true)).toBe(true);
  });
});
