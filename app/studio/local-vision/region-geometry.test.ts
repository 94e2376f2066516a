import { describe, expect, it } from "vitest";
import { sideOf } from "./geometry";
import { fromPixels, lineMarker, pixelDistance, toPixels, zoneLabelPoint } from "./region-geometry";

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
