import { describe, expect, it } from "vitest";
import { BURST_INTERVALS_MS, DEFAULT_CAPTURE_SETTINGS, sanitizeCaptureSettings, TIMELAPSE_INTERVALS_MS } from "./settings";

describe("capture settings", () => {
  it("offers the spec's choices", () => {
    expect(BURST_INTERVALS_MS).toHaveLength(50);
    expect(BURST_INTERVALS_MS[0]).toBe(100);
    expect(BURST_INTERVALS_MS.at(-1)).toBe(5000);
    expect(TIMELAPSE_INTERVALS_MS).toEqual([500, 1000, 2000, 5000, 10000, 30000, 60000, 120000, 300000, 600000]);
  });

  it("repairs stored values that are out of range or of the wrong type", () => {
    expect(sanitizeCaptureSettings(null)).toEqual(DEFAULT_CAPTURE_SETTINGS);
    expect(sanitizeCaptureSettings({ mode: "video", burstCount: 99, burstIntervalMs: 150, timelapseCount: 1, timelapseInfinite: "yes" })).toEqual({
      ...DEFAULT_CAPTURE_SETTINGS,
      burstCount: 20,
      burstIntervalMs: 200,
      timelapseCount: 2,
    });
  });
});
