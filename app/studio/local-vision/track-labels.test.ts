import { describe, expect, it } from "vitest";
import { labelLayout } from "../ai/detection-geometry";
import { counterRect, counterSpot } from "./counter-layout";
import { MAX_SHARE, placeTrackLabels } from "./track-labels";

const picture = { x: 0, y: 0, width: 390, height: 220 };
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe("track labels", () => {
  // A wide shot on a phone: people 50 px tall, side by side.
  const people = [0, 1, 2].map((i) => ({ text: `person #${i + 10}`, box: { x: 100 + i * 22, y: 100, width: 20, height: 50 } }));

  it("are sized to their box in a wide shot, where the chosen size would be taller than the people", () => {
    expect(labelLayout("person #10", people[0]!.box, "medium", 1, 1, picture).rect.height).toBeGreaterThan(people[0]!.box.height / 2);
    const placed = placeTrackLabels(people, "medium", 1, 1, picture, []);
    for (const [i, layout] of placed.entries()) if (layout) expect(layout.rect.height).toBeLessThanOrEqual(people[i]!.box.height * MAX_SHARE);
  });

  it("never overlap each other or a counter, and leave out a label with no room", () => {
    const counter = counterRect("Door: 54 in · 66 out today", counterSpot({ x: 0.2, y: 0.42 }, picture));
    const placed = placeTrackLabels(people, "large", 1, 1, picture, [counter]);
    const rects = placed.filter((l) => l !== null).map((l) => l.rect);
    expect(rects.length).toBeGreaterThan(0);
    for (const [i, r] of rects.entries()) {
      expect(overlaps(r, counter)).toBe(false);
      for (const other of rects.slice(i + 1)) expect(overlaps(r, other)).toBe(false);
    }
  });

  it("keep the chosen size on a box big enough for it", () => {
    const [near] = placeTrackLabels([{ text: "person #1", box: { x: 50, y: 60, width: 200, height: 400 } }], "medium", 1, 1, { x: 0, y: 0, width: 800, height: 600 }, []);
    expect(near!.rect.height).toBe(36);
    expect(near!.rect.y).toBe(24);
  });
});
