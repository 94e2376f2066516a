import { describe, expect, it } from "vitest";
import { DEFAULT_LOCAL_VISION_PREFS, sanitizeLocalVisionPrefs } from "./local-vision-prefs";

describe("local vision prefs", () => {
  it("keep each camera's source and the track-id choice, and drop anything malformed", () => {
    expect(sanitizeLocalVisionPrefs(null)).toEqual(DEFAULT_LOCAL_VISION_PREFS);
    expect(sanitizeLocalVisionPrefs({ sourceByCamera: { a: "local", b: "moondream", c: "cloud", d: 3 }, showTrackIds: false })).toEqual({
      sourceByCamera: { a: "local", b: "moondream" },
      showTrackIds: false,
    });
    expect(sanitizeLocalVisionPrefs({ sourceByCamera: "x", showTrackIds: "no" })).toEqual(DEFAULT_LOCAL_VISION_PREFS);
  });
});
