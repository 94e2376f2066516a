// Box-to-screen mapping (plain and letterboxed pictures), label layout from the §9 size table, hit-testing.
import { describe, expect, it } from "vitest";
import { containRect } from "../geometry";
import { boxAt, boxToRect, labelLayout, pointToXY } from "./detection-geometry";
import { LABEL_SIZES } from "../box-labels";

describe("boxToRect", () => {
  it("maps a normalised box onto a canvas covering the picture", () => {
    const canvas = { x: 0, y: 0, width: 1280, height: 720 };
    expect(boxToRect({ x_min: 0.25, y_min: 0.5, x_max: 0.75, y_max: 1 }, canvas)).toEqual({ x: 320, y: 360, width: 640, height: 360 });
  });

  it("maps into a letterboxed picture: a 4:3 frame in a 16:9 box has bars left and right", () => {
    const picture = containRect(1600, 900, 640, 480); // 1200×900 at x=200
    expect(picture).toEqual({ x: 200, y: 0, width: 1200, height: 900 });
    const r = boxToRect({ x_min: 0.4375, y_min: 0.4167, x_max: 0.5625, y_max: 0.5833 }, picture);
    expect(r.x).toBeCloseTo(200 + 0.4375 * 1200);
    expect(r.y).toBeCloseTo(0.4167 * 900);
    expect(r.width).toBeCloseTo(0.125 * 1200);
    expect(r.height).toBeCloseTo(0.1666 * 900);
  });

  it("maps into a pillarboxed-vertically picture: a 16:9 frame in a tall box has bars top and bottom", () => {
    const picture = containRect(400, 800, 1920, 1080); // 400×225 at y=287.5
    const r = boxToRect({ x_min: 0, y_min: 0, x_max: 1, y_max: 1 }, picture);
    expect(r).toEqual({ x: 0, y: 287.5, width: 400, height: 225 });
  });

  it("clamps coordinates outside 0–1 and accepts swapped corners", () => {
    const canvas = { x: 0, y: 0, width: 100, height: 100 };
    expect(boxToRect({ x_min: 0.9, y_min: 0.8, x_max: 0.1, y_max: 0.2 }, canvas)).toEqual({ x: 10, y: 20, width: 80, height: 60 });
    expect(boxToRect({ x_min: -0.5, y_min: 0, x_max: 1.5, y_max: 1 }, canvas)).toEqual({ x: 0, y: 0, width: 100, height: 100 });
  });

  it("maps points the same way, including the letterbox offset", () => {
    expect(pointToXY({ x: 0.5, y: 0.5 }, { x: 200, y: 0, width: 1200, height: 900 })).toEqual({ x: 800, y: 450 });
  });
});

describe("labelLayout", () => {
  const bounds = { x: 0, y: 0, width: 1000, height: 1000 };

  it.each(Object.entries(LABEL_SIZES))("%s labels use the size table (font, height, char width × length + padding)", (size, m) => {
    const layout = labelLayout("person", { x: 100, y: 200, width: 300, height: 300 }, size as keyof typeof LABEL_SIZES, 1, 1, bounds);
    expect(layout.font).toBe(m.font);
    expect(layout.rect.height).toBe(m.height);
    expect(layout.rect.width).toBe(6 * m.charWidth + m.padding);
    // Above the box, left-aligned with it.
    expect(layout.rect).toMatchObject({ x: 100, y: 200 - m.height });
  });

  it("scales by the font multiplier and the device pixel ratio", () => {
    const layout = labelLayout("cup", { x: 100, y: 200, width: 50, height: 50 }, "medium", 1.5, 2, bounds);
    expect(layout.font).toBe(24 * 3);
    expect(layout.rect.height).toBe(36 * 3);
    expect(layout.rect.width).toBe((3 * 14 + 24) * 3);
  });

  it("goes inside the box when there is no room above, and stays within the picture", () => {
    const top = labelLayout("person", { x: 950, y: 0, width: 50, height: 50 }, "large", 1, 1, bounds);
    expect(top.rect.y).toBe(0);
    expect(top.rect.x + top.rect.width).toBeLessThanOrEqual(1000);
  });
});

describe("boxAt", () => {
  it("finds the top-most box under a position", () => {
    const rects = [
      { x: 0, y: 0, width: 100, height: 100 },
      { x: 50, y: 50, width: 100, height: 100 },
    ];
    expect(boxAt(rects, 75, 75)).toBe(1);
    expect(boxAt(rects, 10, 10)).toBe(0);
    expect(boxAt(rects, 500, 500)).toBe(-1);
  });
});
