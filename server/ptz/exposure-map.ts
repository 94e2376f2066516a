// The studio's manual exposure scales mapped onto camera scales. Ranges are model-specific on real cameras
// (protocols.md §2.2); these follow the PTZOptics G2 / Sony VISCA tables, clamped to their limits.
import { type SHUTTER_SPEEDS } from "#app/schemas/ptz";
import type { ExposureState } from "./driver";

/** Sony/PTZOptics VISCA shutter positions (NTSC table) for 1/30 … 1/1000; HTTP-CGI uses the same index. */
export const SHUTTER_POSITIONS: Record<(typeof SHUTTER_SPEEDS)[number], number> = {
  30: 0x01,
  60: 0x02,
  100: 0x04,
  120: 0x05,
  250: 0x07,
  500: 0x09,
  1000: 0x0b,
};

export const shutterPosition = (denominator: number) => SHUTTER_POSITIONS[denominator as keyof typeof SHUTTER_POSITIONS] ?? 0x02;
/** Iris 0–100 % open onto positions 0x00 (closed) – 0x11 (F1.6). */
export const irisPosition = (percent: number) => Math.round((clamp(percent, 0, 100) * 0x11) / 100);
/** Gain 0–24 dB in the cameras' 3 dB steps (0–8). */
export const gainPosition = (db: number) => Math.round(clamp(db, 0, 24) / 3);
/** Saturation 0–100 onto the 0–14 scale (60–200 %). */
export const saturationPosition = (percent: number) => Math.round((clamp(percent, 0, 100) * 14) / 100);

/**
 * Temperature 0–100 (warm → cool) and tint −50…50 (green → magenta) onto red and blue gains 0–255: a warmer
 * picture raises red and lowers blue; magenta raises both against green.
 */
export function whiteBalanceGains(state: ExposureState): { red: number; blue: number } {
  const warm = (50 - state.temperature) * 2;
  return {
    red: Math.round(clamp(128 + warm + state.tint, 0, 255)),
    blue: Math.round(clamp(128 - warm + state.tint, 0, 255)),
  };
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
