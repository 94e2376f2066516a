// Capture settings and their limits (spec §5, §9), kept in localStorage between visits.
import type { CaptureMode } from "../schemas/photos";

export interface CaptureSettings {
  mode: CaptureMode;
  burstCount: number;
  burstIntervalMs: number;
  timelapseIntervalMs: number;
  timelapseCount: number;
  timelapseInfinite: boolean;
}

export const DEFAULT_CAPTURE_SETTINGS: CaptureSettings = {
  mode: "single",
  burstCount: 5,
  burstIntervalMs: 200,
  timelapseIntervalMs: 1000,
  timelapseCount: 10,
  timelapseInfinite: false,
};

export const BURST_COUNT = { min: 2, max: 20 };
export const BURST_INTERVALS_MS = Array.from({ length: 50 }, (_, i) => (i + 1) * 100);
export const TIMELAPSE_INTERVALS_MS = [500, 1000, 2000, 5000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000];
export const TIMELAPSE_COUNT = { min: 2, max: 100 };

export const RESOLUTIONS = [
  { label: "640x480", width: 640, height: 480 },
  { label: "1280x720", width: 1280, height: 720 },
  { label: "1920x1080", width: 1920, height: 1080 },
  { label: "2560x1440", width: 2560, height: 1440 },
  { label: "3840x2160", width: 3840, height: 2160 },
];
export const DEFAULT_RESOLUTION = { width: 1920, height: 1080 };
export const FRAME_RATES = [15, 24, 30, 60];
export const DEFAULT_FRAME_RATE = 30;

const clamp = (value: unknown, min: number, max: number, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : fallback;

/** Reads stored settings, repairing anything out of range rather than trusting it. */
export function sanitizeCaptureSettings(raw: unknown): CaptureSettings {
  const value = (raw && typeof raw === "object" ? raw : {}) as Partial<CaptureSettings>;
  const d = DEFAULT_CAPTURE_SETTINGS;
  return {
    mode: value.mode === "burst" || value.mode === "timelapse" || value.mode === "single" ? value.mode : d.mode,
    burstCount: clamp(value.burstCount, BURST_COUNT.min, BURST_COUNT.max, d.burstCount),
    burstIntervalMs: Math.round(clamp(value.burstIntervalMs, 100, 5000, d.burstIntervalMs) / 100) * 100,
    timelapseIntervalMs: clamp(value.timelapseIntervalMs, 500, 600_000, d.timelapseIntervalMs),
    timelapseCount: clamp(value.timelapseCount, TIMELAPSE_COUNT.min, TIMELAPSE_COUNT.max, d.timelapseCount),
    timelapseInfinite: typeof value.timelapseInfinite === "boolean" ? value.timelapseInfinite : d.timelapseInfinite,
  };
}

/** Burst intervals read in milliseconds ("200 ms"); timelapse intervals in seconds or minutes ("0.5 s", "2 min"). */
export function formatInterval(ms: number, unit: "ms" | "s" = "s"): string {
  if (unit === "ms" && ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${ms / 1000} s`;
  return `${ms / 60_000} min`;
}

export function loadJson(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

export function saveJson(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or disabled: settings just don't persist
  }
}
