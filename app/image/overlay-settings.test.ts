import { describe, expect, it } from "vitest";
import { DEFAULT_OVERLAY_SETTINGS, lutActive, overlaysIdle, sanitizeOverlaySettings, snap } from "./overlay-settings";

describe("overlay settings", () => {
  it("defaults: everything off, intensity 1, zebra high 230 / low 0 at 75 %", () => {
    expect(sanitizeOverlaySettings(null)).toEqual(DEFAULT_OVERLAY_SETTINGS);
    expect(DEFAULT_OVERLAY_SETTINGS).toMatchObject({ lutIntensity: 1, zebraHigh: 230, zebraLow: 0, zebraOpacity: 0.75, zebraMode: "high", histogramMode: "luma" });
  });

  it("repairs stored values: steps, ranges and unknown modes", () => {
    const repaired = sanitizeOverlaySettings({
      lutEnabled: "yes",
      lutId: 42,
      lutIntensity: 0.456,
      zebraOpacity: 0.77,
      zebraHigh: 300,
      zebraLow: -5,
      zebraMode: "sideways",
      histogramMode: "rgb",
      histogramLog: true,
    });
    expect(repaired).toMatchObject({
      lutEnabled: false,
      lutId: null,
      lutIntensity: 0.46,
      zebraOpacity: 0.75,
      zebraHigh: 255,
      zebraLow: 0,
      zebraMode: "high",
      histogramMode: "rgb",
      histogramLog: true,
    });
    expect(snap(1.5, 0.05)).toBe(1);
    expect(snap(0.33, 0.05)).toBe(0.35);
  });

  it("applies a LUT only when enabled and one is selected; idle means the plain video", () => {
    const base = DEFAULT_OVERLAY_SETTINGS;
    expect(lutActive({ ...base, lutEnabled: true })).toBe(false);
    expect(lutActive({ ...base, lutId: "x" })).toBe(false);
    expect(lutActive({ ...base, lutEnabled: true, lutId: "x" })).toBe(true);
    expect(overlaysIdle(base, false)).toBe(true);
    expect(overlaysIdle({ ...base, lutEnabled: true, lutId: "x" }, false)).toBe(true); // not loaded yet
    expect(overlaysIdle({ ...base, lutEnabled: true, lutId: "x" }, true)).toBe(false);
    expect(overlaysIdle({ ...base, zebraEnabled: true }, false)).toBe(false);
    expect(overlaysIdle({ ...base, histogramEnabled: true }, false)).toBe(false);
  });
});
