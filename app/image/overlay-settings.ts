// The preview's visual overlays (spec §9 Overlays): LUT grading, histogram and zebra, with their
// limits and defaults. Stored in localStorage like the other studio settings; anything out of range
// read back from storage is repaired rather than trusted.
import { LUT_DEFAULT_INTENSITY, ZEBRA_DEFAULT_HIGH, ZEBRA_DEFAULT_LOW, ZEBRA_DEFAULT_OPACITY } from "./constants";
import type { HistogramMode, ZebraMode } from "./types";

export const OVERLAY_SETTINGS_KEY = "visualOverlays";

export interface OverlaySettings {
  lutEnabled: boolean;
  lutId: string | null;
  /** 0..1 in 0.01 steps. */
  lutIntensity: number;
  histogramEnabled: boolean;
  histogramMode: HistogramMode;
  histogramLog: boolean;
  zebraEnabled: boolean;
  zebraMode: ZebraMode;
  /** 0..255. */
  zebraHigh: number;
  /** 0..255; 0 turns the low side off. */
  zebraLow: number;
  /** 0..1 in 0.05 steps. */
  zebraOpacity: number;
}

export const DEFAULT_OVERLAY_SETTINGS: OverlaySettings = {
  lutEnabled: false,
  lutId: null,
  lutIntensity: LUT_DEFAULT_INTENSITY,
  histogramEnabled: false,
  histogramMode: "luma",
  histogramLog: false,
  zebraEnabled: false,
  zebraMode: "high",
  zebraHigh: ZEBRA_DEFAULT_HIGH,
  zebraLow: ZEBRA_DEFAULT_LOW,
  zebraOpacity: ZEBRA_DEFAULT_OPACITY,
};

export const LUT_INTENSITY_STEP = 0.01;
export const ZEBRA_OPACITY_STEP = 0.05;
/** The preview's LUT view is redrawn at most this often; zebra and histogram at ZEBRA/HISTOGRAM_FPS. */
export const LUT_PREVIEW_FPS = 30;
export const ZEBRA_FPS = 10;
export const HISTOGRAM_FPS = 10;

/** Rounds to a step on a 0..1 scale (so 0.7500000001 from a slider is stored as 0.75). */
export function snap(value: number, step: number): number {
  const clamped = Math.min(1, Math.max(0, value));
  return Math.round(Math.round(clamped / step) * step * 1000) / 1000;
}

function pick<T>(value: unknown, choices: readonly T[], fallback: T): T {
  return choices.includes(value as T) ? (value as T) : fallback;
}

function level(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.min(255, Math.max(0, Math.round(value))) : fallback;
}

function fraction(value: unknown, step: number, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? snap(value, step) : fallback;
}

export function sanitizeOverlaySettings(raw: unknown): OverlaySettings {
  const value = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const d = DEFAULT_OVERLAY_SETTINGS;
  const bool = (key: keyof OverlaySettings) => (typeof value[key] === "boolean" ? (value[key] as boolean) : (d[key] as boolean));
  return {
    lutEnabled: bool("lutEnabled"),
    lutId: typeof value.lutId === "string" && value.lutId.length > 0 && value.lutId.length <= 64 ? value.lutId : null,
    lutIntensity: fraction(value.lutIntensity, LUT_INTENSITY_STEP, d.lutIntensity),
    histogramEnabled: bool("histogramEnabled"),
    histogramMode: pick(value.histogramMode, ["luma", "rgb"] as const, d.histogramMode),
    histogramLog: bool("histogramLog"),
    zebraEnabled: bool("zebraEnabled"),
    zebraMode: pick(value.zebraMode, ["high", "low", "both"] as const, d.zebraMode),
    zebraHigh: level(value.zebraHigh, d.zebraHigh),
    zebraLow: level(value.zebraLow, d.zebraLow),
    zebraOpacity: fraction(value.zebraOpacity, ZEBRA_OPACITY_STEP, d.zebraOpacity),
  };
}

/** A LUT is applied only when enabled AND one is selected (spec §4). */
export function lutActive(settings: OverlaySettings): boolean {
  return settings.lutEnabled && settings.lutId !== null;
}

/** True when no overlay needs drawing: the preview then stays the plain <video>. */
export function overlaysIdle(settings: OverlaySettings, lutLoaded: boolean): boolean {
  return !(lutActive(settings) && lutLoaded) && !settings.zebraEnabled && !settings.histogramEnabled;
}
