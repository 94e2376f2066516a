// Box and point detection settings (spec §9 "Detection"), their limits, and the repair of anything read
// back from localStorage ("boxDetectionSettings"): stored values are never trusted as they are.
import type { LabelSize } from "../box-labels";

export type LabelMode = "inline" | "popup";

export interface BoxDetectionSettings {
  enabled: boolean;
  boxQuery: string;
  /** Milliseconds between the end of one detection and the next. */
  boxDetectionInterval: number;
  /** Passed through to the server; Moondream returns no confidence, so it filters nothing there. */
  boxConfidenceThreshold: number;
  boxColor: string;
  boxThickness: number;
  maxBoxes: number;
  boxLabelSize: LabelSize;
  boxLabelMode: LabelMode;
  boxFontSizeMultiplier: number;
  boxBorderMultiplier: number;
}

export interface PointDetectionSettings {
  enabled: boolean;
  object: string;
  interval: number;
  size: number;
  color: string;
}

export const BOX_DETECTION_STORAGE_KEY = "boxDetectionSettings";

export const DEFAULT_BOX_SETTINGS: BoxDetectionSettings = {
  enabled: false,
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
};

export const DEFAULT_POINT_SETTINGS: PointDetectionSettings = {
  enabled: false,
  object: "person",
  interval: 5000,
  size: 20,
  color: "#00ff00",
};

/** Detection interval choices (the AI tab's, plus 1 s for fast-moving scenes). */
export const DETECTION_INTERVALS_MS = [1000, 2000, 3000, 5000, 10_000, 15_000, 30_000, 60_000];
export const CONFIDENCE = { min: 0.01, max: 1, step: 0.01 };
export const THICKNESS = { min: 1, max: 10, step: 1 };
export const MAX_BOXES = { min: 1, max: 20, step: 1 };
export const MULTIPLIER = { min: 0.5, max: 3, step: 0.1 };
export const POINT_SIZE = { min: 5, max: 50, step: 1 };
/** The query is sent as the server's `object`, which takes up to 200 characters. */
export const QUERY_MAX_LENGTH = 200;

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

function num(value: unknown, min: number, max: number, fallback: number, step: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
  const clamped = Math.min(max, Math.max(min, value));
  // Snap to the step (and drop float noise such as 0.30000000000000004).
  return Number((Math.round(clamped / step) * step).toFixed(4));
}

function text(value: unknown, fallback: string): string {
  return typeof value === "string" && value.trim() ? value.trim().slice(0, QUERY_MAX_LENGTH) : fallback;
}

function color(value: unknown, fallback: string): string {
  return typeof value === "string" && HEX_COLOR.test(value) ? value.toLowerCase() : fallback;
}

function interval(value: unknown, fallback: number): number {
  return typeof value === "number" && DETECTION_INTERVALS_MS.includes(value) ? value : fallback;
}

export function sanitizeBoxSettings(raw: unknown): BoxDetectionSettings {
  const v = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const d = DEFAULT_BOX_SETTINGS;
  return {
    enabled: typeof v.enabled === "boolean" ? v.enabled : d.enabled,
    boxQuery: text(v.boxQuery, d.boxQuery),
    boxDetectionInterval: interval(v.boxDetectionInterval, d.boxDetectionInterval),
    boxConfidenceThreshold: num(v.boxConfidenceThreshold, CONFIDENCE.min, CONFIDENCE.max, d.boxConfidenceThreshold, CONFIDENCE.step),
    boxColor: color(v.boxColor, d.boxColor),
    boxThickness: num(v.boxThickness, THICKNESS.min, THICKNESS.max, d.boxThickness, THICKNESS.step),
    maxBoxes: num(v.maxBoxes, MAX_BOXES.min, MAX_BOXES.max, d.maxBoxes, MAX_BOXES.step),
    boxLabelSize: v.boxLabelSize === "small" || v.boxLabelSize === "medium" || v.boxLabelSize === "large" ? v.boxLabelSize : d.boxLabelSize,
    boxLabelMode: v.boxLabelMode === "inline" || v.boxLabelMode === "popup" ? v.boxLabelMode : d.boxLabelMode,
    boxFontSizeMultiplier: num(v.boxFontSizeMultiplier, MULTIPLIER.min, MULTIPLIER.max, d.boxFontSizeMultiplier, MULTIPLIER.step),
    boxBorderMultiplier: num(v.boxBorderMultiplier, MULTIPLIER.min, MULTIPLIER.max, d.boxBorderMultiplier, MULTIPLIER.step),
  };
}

export function sanitizePointSettings(raw: unknown): PointDetectionSettings {
  const v = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const d = DEFAULT_POINT_SETTINGS;
  return {
    enabled: typeof v.enabled === "boolean" ? v.enabled : d.enabled,
    object: typeof v.object === "string" ? v.object.slice(0, QUERY_MAX_LENGTH) : d.object,
    interval: interval(v.interval, d.interval),
    size: num(v.size, POINT_SIZE.min, POINT_SIZE.max, d.size, POINT_SIZE.step),
    color: color(v.color, d.color),
  };
}
