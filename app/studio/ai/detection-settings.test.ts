// Stored detection settings are repaired, never trusted.
import { describe, expect, it } from "vitest";
import { DEFAULT_BOX_SETTINGS, DEFAULT_POINT_SETTINGS, sanitizeBoxSettings, sanitizePointSettings } from "./detection-settings";

describe("sanitizeBoxSettings", () => {
  it("gives the spec's defaults for nothing or garbage", () => {
    expect(sanitizeBoxSettings(null)).toEqual(DEFAULT_BOX_SETTINGS);
    expect(sanitizeBoxSettings("x")).toEqual(DEFAULT_BOX_SETTINGS);
    expect(DEFAULT_BOX_SETTINGS).toMatchObject({
      boxQuery: "person",
      boxDetectionInterval: 5000,
      boxConfidenceThreshold: 0.3,
      boxColor: "#ff0000",
      boxThickness: 3,
      maxBoxes: 10,
      boxLabelSize: "medium",
      boxLabelMode: "inline",
      boxFontSizeMultiplier: 1,
      boxBorderMultiplier: 1,
    });
  });

  it("clamps to the limits and snaps to the steps", () => {
    const s = sanitizeBoxSettings({ boxConfidenceThreshold: 0, boxThickness: 99, maxBoxes: 0, boxFontSizeMultiplier: 7, boxBorderMultiplier: 0.73 });
    expect(s).toMatchObject({ boxConfidenceThreshold: 0.01, boxThickness: 10, maxBoxes: 1, boxFontSizeMultiplier: 3, boxBorderMultiplier: 0.7 });
    expect(sanitizeBoxSettings({ boxConfidenceThreshold: 0.30000000000000004 }).boxConfidenceThreshold).toBe(0.3);
  });

  it("keeps valid values and rejects bad enums, colours, intervals and a blank query", () => {
    const s = sanitizeBoxSettings({ enabled: true, boxQuery: "  red car ", boxColor: "#00FF00", boxLabelSize: "large", boxLabelMode: "popup", boxDetectionInterval: 2000 });
    expect(s).toMatchObject({ enabled: true, boxQuery: "red car", boxColor: "#00ff00", boxLabelSize: "large", boxLabelMode: "popup", boxDetectionInterval: 2000 });
    const bad = sanitizeBoxSettings({ enabled: "yes", boxQuery: "   ", boxColor: "red; background:url(x)", boxLabelSize: "huge", boxLabelMode: "x", boxDetectionInterval: 7 });
    expect(bad).toEqual(DEFAULT_BOX_SETTINGS);
  });
});

describe("sanitizePointSettings", () => {
  it("defaults to person, 20 px, green and clamps the size to 5–50", () => {
    expect(sanitizePointSettings(undefined)).toEqual(DEFAULT_POINT_SETTINGS);
    expect(DEFAULT_POINT_SETTINGS).toMatchObject({ object: "person", size: 20, color: "#00ff00" });
    expect(sanitizePointSettings({ size: 1 }).size).toBe(5);
    expect(sanitizePointSettings({ size: 100 }).size).toBe(50);
    // A blank object is kept (the field is being edited) — the loop just doesn't run.
    expect(sanitizePointSettings({ object: "" }).object).toBe("");
  });
});
