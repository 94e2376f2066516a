// Validation and defaults of the image core's inputs, shared by the WASM wrapper and the TS reference
// so both interpret options identically.
import {
  LUT_1D_MAX_SIZE,
  LUT_1D_MIN_SIZE,
  LUT_3D_MAX_SIZE,
  LUT_3D_MIN_SIZE,
  ZEBRA_DEFAULT_HIGH,
  ZEBRA_DEFAULT_LOW,
  ZEBRA_DEFAULT_OPACITY,
  ZEBRA_DEFAULT_STRIPE_PERIOD,
  ZEBRA_HIGH_RGB,
  ZEBRA_LOW_RGB,
  ZEBRA_WORKING_WIDTH,
} from "./constants";
import type { ParsedLut, PixelBuffer, ZebraOptions, ZebraOverlayOptions } from "./types";

export function checkPixels(pixels: PixelBuffer): number {
  if (!(pixels instanceof Uint8Array || pixels instanceof Uint8ClampedArray)) throw new TypeError("pixels must be a Uint8Array or Uint8ClampedArray");
  if (pixels.length % 4 !== 0) throw new RangeError("pixels must be RGBA (a multiple of 4 bytes)");
  return pixels.length / 4;
}

/**
 * The same bytes as a Uint8Array. Copies between typed arrays of different types (Uint8ClampedArray
 * into a Uint8Array view of WASM memory) take V8's element-by-element path, ~30× slower than memcpy.
 */
export function bytesOf(pixels: PixelBuffer): Uint8Array {
  return pixels instanceof Uint8Array ? pixels : new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.length);
}

/** Intensity 0..1 (clamped); NaN is a caller bug. */
export function checkIntensity(intensity: number): number {
  if (Number.isNaN(intensity)) throw new RangeError("intensity must be a number from 0 to 1");
  return Math.min(1, Math.max(0, intensity));
}

/** Throws unless `lut` is a well-formed ParsedLut (it may come from a worker message or a cache). */
export function checkLut(lut: ParsedLut): void {
  const is3d = lut.kind === "3d";
  if (!is3d && lut.kind !== "1d") throw new TypeError("LUT kind must be 3d or 1d");
  const [min, max] = is3d ? [LUT_3D_MIN_SIZE, LUT_3D_MAX_SIZE] : [LUT_1D_MIN_SIZE, LUT_1D_MAX_SIZE];
  if (!Number.isInteger(lut.size) || lut.size < min || lut.size > max) throw new RangeError(`LUT size must be ${min} to ${max}`);
  if (!(lut.data instanceof Float32Array) || lut.data.length !== (is3d ? lut.size ** 3 : lut.size) * 3) throw new RangeError("LUT data does not match its size");
  checkDomain(lut.domainMin, lut.domainMax);
  const { shaper } = lut;
  if (shaper === undefined) return;
  if (!is3d) throw new TypeError("only a 3D LUT can have a shaper");
  if (!Number.isInteger(shaper.size) || shaper.size < LUT_1D_MIN_SIZE || shaper.size > LUT_1D_MAX_SIZE)
    throw new RangeError(`LUT shaper size must be ${LUT_1D_MIN_SIZE} to ${LUT_1D_MAX_SIZE}`);
  if (!(shaper.data instanceof Float32Array) || shaper.data.length !== shaper.size * 3) throw new RangeError("LUT shaper data does not match its size");
  checkDomain(shaper.domainMin, shaper.domainMax);
}

function checkDomain(min: readonly number[], max: readonly number[]): void {
  for (let channel = 0; channel < 3; channel++) {
    const low = min[channel];
    const high = max[channel];
    if (!(Number.isFinite(low) && Number.isFinite(high) && (high as number) > (low as number))) throw new RangeError("LUT domain must have max > min");
  }
}

function checkThreshold(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 255) throw new RangeError(`zebra ${name} threshold must be an integer from 0 to 255`);
  return value;
}

/**
 * Effective thresholds for the mask: a side that is off gets a threshold no luma can reach
 * (high 256, low -1). The low side is active only above 0, as the spec says.
 */
export function zebraThresholds(options: ZebraOptions): { high: number; low: number } {
  const high = checkThreshold(options.high ?? ZEBRA_DEFAULT_HIGH, "high");
  const low = checkThreshold(options.low ?? ZEBRA_DEFAULT_LOW, "low");
  switch (options.mode) {
    case "high":
      return { high, low: -1 };
    case "low":
      return { high: 256, low: low > 0 ? low : -1 };
    case "both":
      return { high, low: low > 0 ? low : -1 };
    default:
      throw new RangeError("zebra mode must be high, low or both");
  }
}

export interface ZebraPaint {
  width: number;
  height: number;
  period: number;
  phase: number;
  /** RGBA8 as a little-endian u32, alpha = opacity. */
  highColour: number;
  lowColour: number;
}

export function zebraPaint(options: ZebraOverlayOptions, pixelCount: number): ZebraPaint {
  const { width } = options;
  if (!Number.isInteger(width) || width <= 0 || pixelCount % width !== 0) throw new RangeError("zebra overlay width must divide the pixel count");
  const opacity = options.opacity ?? ZEBRA_DEFAULT_OPACITY;
  if (!(opacity >= 0 && opacity <= 1)) throw new RangeError("zebra opacity must be from 0 to 1");
  const period = options.period ?? ZEBRA_DEFAULT_STRIPE_PERIOD;
  if (!Number.isInteger(period) || period < 2 || period > 1024) throw new RangeError("zebra stripe period must be an integer from 2 to 1024");
  const phase = options.phase ?? 0;
  if (!Number.isInteger(phase)) throw new RangeError("zebra phase must be an integer");
  const alpha = Math.round(opacity * 255);
  const colour = ([r, g, b]: readonly [number, number, number]) => (r | (g << 8) | (b << 16) | (alpha << 24)) >>> 0;
  return {
    width,
    height: pixelCount / width,
    period,
    phase: ((phase % period) + period) % period,
    highColour: colour(ZEBRA_HIGH_RGB),
    lowColour: colour(ZEBRA_LOW_RGB),
  };
}

/** The zebra working frame for a video frame: 320 px wide, the height keeping the aspect ratio. */
export function zebraWorkingSize(videoWidth: number, videoHeight: number): { width: number; height: number } {
  if (!(videoWidth > 0 && videoHeight > 0)) throw new RangeError("video size must be positive");
  return { width: ZEBRA_WORKING_WIDTH, height: Math.max(1, Math.round((ZEBRA_WORKING_WIDTH * videoHeight) / videoWidth)) };
}
