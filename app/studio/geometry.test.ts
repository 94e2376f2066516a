import { describe, expect, it } from "vitest";
import { containRect, normalisedPosition } from "./geometry";

describe("containRect", () => {
  it("letterboxes a 16:9 picture in a 4:3 box and pillarboxes a 4:3 picture in a 16:9 box", () => {
    expect(containRect(800, 600, 1920, 1080)).toEqual({ x: 0, y: 75, width: 800, height: 450 });
    expect(containRect(1600, 900, 640, 480)).toEqual({ x: 200, y: 0, width: 1200, height: 900 });
  });
});

describe("normalisedPosition", () => {
  const rect = { x: 0, y: 75, width: 800, height: 450 };
  it("maps corners and centre of the picture to -1…1", () => {
    expect(normalisedPosition(0, 75, rect)).toEqual({ x: -1, y: -1 });
    expect(normalisedPosition(400, 300, rect)).toEqual({ x: 0, y: 0 });
    expect(normalisedPosition(800, 525, rect)).toEqual({ x: 1, y: 1 });
  });
  it("ignores clicks on the letterbox bars", () => {
    expect(normalisedPosition(400, 20, rect)).toBeNull();
  });
});
