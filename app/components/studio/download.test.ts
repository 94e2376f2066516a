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
  it("names an edit after its kind; a cut-out keeps its transparency as a PNG unless it was graded (a JPEG)", () => {
    const cutout = { captureMode: "single", createdAt: "2026-11-21T20:15:03Z", editKind: "cutout" };
    expect(photoFileName(cutout)).toMatch(/^photo_single_2026-11-2\d_\d\d-\d\d-03_cutout\.png$/);
    expect(photoFileName(cutout, "Warm")).toMatch(/_cutout_Warm\.jpg$/);
    expect(photoFileName({ ...cutout, editKind: "crop" })).toMatch(/_crop\.jpg$/);
  });
});
