import { describe, expect, it } from "vitest";
import { photoFileName, storyFileName } from "./download";

describe("download names", () => {
  it("names a story after its lower-cased title with non-alphanumerics as underscores", () => {
    expect(storyFileName("Story - 11/21/2026, 8:15:00 PM")).toBe("story___11_21_2026__8_15_00_pm.txt");
  });
  it("names a photo with the prefix, capture mode, a timestamp and the LUT", () => {
    const name = photoFileName({ captureMode: "burst", createdAt: "2026-11-21T20:15:03Z" }, "Black & White");
    expect(name).toMatch(/^photo_burst_2026-11-2\d_\d\d-\d\d-03_Black-White\.jpg$/);
  });
});
