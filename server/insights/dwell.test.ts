import { describe, expect, it } from "vitest";
import { DWELL_BUCKETS } from "#app/schemas/insights";
import { dwellBucket, histogramMedian } from "./dwell";

describe("dwell histogram", () => {
  it("puts a visit in the first bucket whose bound it does not pass, the longest in the open one", () => {
    expect(dwellBucket(0)).toBe(0);
    expect(dwellBucket(10)).toBe(0);
    expect(dwellBucket(10.5)).toBe(1);
    expect(dwellBucket(3600)).toBe(DWELL_BUCKETS.length - 1);
    expect(dwellBucket(7200)).toBe(DWELL_BUCKETS.length);
  });

  it("reads the median within its bucket, and none without visits", () => {
    expect(histogramMedian([])).toBeNull();
    expect(histogramMedian([0, 0, 0])).toBeNull();
    // 4 visits under 10 s, 4 between 10 and 30 s: the median is the boundary.
    expect(histogramMedian([4, 4])).toBe(10);
    // All 10 between 30 and 60 s: the middle of that bucket.
    expect(histogramMedian([0, 0, 10])).toBe(45);
    // Beyond the last bound: its lower bound.
    expect(histogramMedian([0, 0, 0, 0, 0, 0, 0, 0, 5])).toBe(3600);
  });
});
