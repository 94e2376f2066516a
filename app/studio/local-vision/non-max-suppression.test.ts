import { describe, expect, it } from "vitest";
import { DEFAULT_DETECT_OPTIONS } from "./detector-types";
import { iou as intersectionOverUnion } from "./geometry";
import { nonMaxSuppression } from "./non-max-suppression";

const box = (x: number, y: number, width = 0.2, height = 0.4) => ({ x_min: x, y_min: y, x_max: x + width, y_max: y + height });

describe("nonMaxSuppression", () => {
  it("keeps the best of overlapping boxes and every box that stands apart, best first", () => {
    const kept = nonMaxSuppression(
      [
        { box: box(0.1, 0.1), score: 0.5, id: "weaker twin" },
        { box: box(0.11, 0.1), score: 0.9, id: "best" },
        { box: box(0.6, 0.1), score: 0.7, id: "apart" },
      ],
      0.5,
      10,
    );
    expect(kept.map((detection) => detection.id)).toEqual(["best", "apart"]);
  });

  it("keeps two people standing side by side whose boxes touch a little", () => {
    const kept = nonMaxSuppression(
      [
        { box: box(0.1, 0.1), score: 0.8 },
        { box: box(0.25, 0.1), score: 0.6 },
      ],
      0.5,
      10,
    );
    expect(kept).toHaveLength(2);
  });

  it("keeps objects of different classes that overlap, such as a person and the bag they hold", () => {
    const kept = nonMaxSuppression(
      [
        { box: box(0.1, 0.1), score: 0.9, label: "person" },
        { box: box(0.12, 0.12), score: 0.6, label: "handbag" },
        { box: box(0.11, 0.1), score: 0.5, label: "person" },
      ],
      0.5,
      10,
    );
    expect(kept.map((detection) => detection.label)).toEqual(["person", "handbag"]);
  });

  it("by default keeps two people walking together whose boxes overlap by more than half", () => {
    const front = { box: box(0.3, 0.2), score: 0.8, label: "person" };
    const behind = { box: box(0.35, 0.21), score: 0.5, label: "person" };
    expect(intersectionOverUnion(front.box, behind.box)).toBeGreaterThan(0.55);
    const { iouThreshold, maxDetections } = DEFAULT_DETECT_OPTIONS;
    expect(nonMaxSuppression([front, behind], iouThreshold, maxDetections)).toEqual([front, behind]);
  });

  it("stops at the maximum count", () => {
    const candidates = [0, 0.3, 0.6].map((x, i) => ({ box: box(x, 0), score: 1 - i / 10 }));
    expect(nonMaxSuppression(candidates, 0.5, 2)).toEqual(candidates.slice(0, 2));
  });
});

describe("intersectionOverUnion", () => {
  it("is 1 for the same box, 0 for disjoint ones, and the overlap's share otherwise", () => {
    expect(intersectionOverUnion(box(0, 0), box(0, 0))).toBeCloseTo(1);
    expect(intersectionOverUnion(box(0, 0), box(0.5, 0))).toBe(0);
    expect(intersectionOverUnion(box(0, 0, 0.2, 0.2), box(0.1, 0, 0.2, 0.2))).toBeCloseTo(0.02 / 0.06);
  });
});
