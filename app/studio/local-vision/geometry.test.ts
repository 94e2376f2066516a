import { describe, expect, it } from "vitest";
import { anchorPoint, crossingAlong, insidePolygon, iou, sideOf } from "./geometry";

describe("local-vision geometry", () => {
  it("measures IoU of overlapping, touching and disjoint boxes", () => {
    expect(iou({ x_min: 0, y_min: 0, x_max: 2, y_max: 2 }, { x_min: 1, y_min: 0, x_max: 3, y_max: 2 })).toBeCloseTo(1 / 3);
    expect(iou({ x_min: 0, y_min: 0, x_max: 1, y_max: 1 }, { x_min: 1, y_min: 0, x_max: 2, y_max: 1 })).toBe(0);
    expect(iou({ x_min: 0, y_min: 0, x_max: 1, y_max: 1 }, { x_min: 0, y_min: 0, x_max: 1, y_max: 1 })).toBe(1);
  });

  it("puts the anchor where asked, bottom-centre by default", () => {
    const box = { x_min: 0.2, y_min: 0.2, x_max: 0.4, y_max: 0.6 };
    const at = (point: { x: number; y: number }) => [point.x.toFixed(6), point.y.toFixed(6)];
    expect(at(anchorPoint(box))).toEqual(["0.300000", "0.600000"]);
    expect(at(anchorPoint(box, "top-centre"))).toEqual(["0.300000", "0.200000"]);
    expect(at(anchorPoint(box, "centre"))).toEqual(["0.300000", "0.400000"]);
    expect(at(anchorPoint(box, "left-centre"))).toEqual(["0.200000", "0.400000"]);
  });

  it("tells the right-hand side on screen (y down) from the left, and the line itself from both", () => {
    const a = { x: 0, y: 0.5 };
    const b = { x: 1, y: 0.5 };
    expect(sideOf({ x: 0.5, y: 0.7 }, a, b)).toBe(1);
    expect(sideOf({ x: 0.5, y: 0.3 }, a, b)).toBe(-1);
    expect(sideOf({ x: 0.5, y: 0.5 }, a, b)).toBe(0);
  });

  it("finds where a move meets the line, as a fraction along the segment", () => {
    const a = { x: 0.3, y: 0.5 };
    const b = { x: 0.7, y: 0.5 };
    expect(crossingAlong({ x: 0.5, y: 0.4 }, { x: 0.5, y: 0.6 }, a, b)).toBeCloseTo(0.5);
    expect(crossingAlong({ x: 0.3, y: 0.4 }, { x: 0.4, y: 0.6 }, a, b)).toBeCloseTo(0.125);
    expect(crossingAlong({ x: 0.1, y: 0.4 }, { x: 0.1, y: 0.6 }, a, b)).toBeCloseTo(-0.5);
    expect(crossingAlong({ x: 0.1, y: 0.4 }, { x: 0.2, y: 0.4 }, a, b)).toBeNull();
  });

  it("tests points against a concave polygon, whichever way round it was drawn", () => {
    const l = [
      { x: 0, y: 0 },
      { x: 2, y: 0 },
      { x: 2, y: 1 },
      { x: 1, y: 1 },
      { x: 1, y: 2 },
      { x: 0, y: 2 },
    ];
    for (const polygon of [l, [...l].reverse()]) {
      expect(insidePolygon({ x: 0.5, y: 1.5 }, polygon)).toBe(true);
      expect(insidePolygon({ x: 1.5, y: 1.5 }, polygon)).toBe(false);
      expect(insidePolygon({ x: 3, y: 0.5 }, polygon)).toBe(false);
    }
  });
});
