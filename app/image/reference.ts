// Plain TypeScript reference implementations of LUT grading, histogram and zebra: written for
// clarity in double precision straight from the definitions, they are what the WASM core is
// tested against (and the baseline its benchmark is measured against).
import { LUMA_WEIGHTS_FIXED, LUT_OUTPUT_LIMIT, ZEBRA_MASK_HIGH, ZEBRA_MASK_LOW } from "./constants";
import { checkIntensity, checkLut, checkPixels, zebraPaint, zebraThresholds } from "./options";
import type { Histogram, HistogramOptions, ParsedLut, PixelBuffer, ZebraOptions, ZebraOverlayOptions } from "./types";

/** Rec. 709 luma of 8-bit RGB, rounded to an integer 0..255 (fixed-point weights, see constants). */
export function referenceLuma(r: number, g: number, b: number): number {
  const [wr, wg, wb] = LUMA_WEIGHTS_FIXED;
  return Math.floor((r * wr + g * wg + b * wb + 32768) / 65536);
}

/** Where an input value lands on a grid of `size` points: the lower cell index (fraction in `fractionOut`). */
function gridCell(input: number, size: number, min: number, max: number, fractionOut: number[], axis: number): number {
  const t = Math.min(1, Math.max(0, (input - min) / (max - min)));
  const position = t * (size - 1);
  const cell = Math.min(Math.floor(position), size - 2);
  fractionOut[axis] = position - cell;
  return cell;
}

function tableValue(data: Float32Array, index: number, channel: number): number {
  const value = data[index * 3 + channel] ?? 0;
  return Math.min(LUT_OUTPUT_LIMIT, Math.max(-LUT_OUTPUT_LIMIT, value));
}

const lutValue = (lut: ParsedLut, index: number, channel: number) => tableValue(lut.data, index, channel);

const fractions = [0, 0, 0];

/**
 * Tetrahedral interpolation of all three channels of the input (r, g, b in the LUT's input units)
 * into `out`: the cell is split into six tetrahedra by the order of the fractions; the point's
 * tetrahedron runs from the lower corner to the upper one, stepping along the axes in order of
 * decreasing fraction.
 */
function tetrahedral(lut: ParsedLut, r: number, g: number, b: number, out: number[]): void {
  const n = lut.size;
  const corner =
    gridCell(r, n, lut.domainMin[0], lut.domainMax[0], fractions, 0) +
    gridCell(g, n, lut.domainMin[1], lut.domainMax[1], fractions, 1) * n +
    gridCell(b, n, lut.domainMin[2], lut.domainMax[2], fractions, 2) * n * n;
  const fr = fractions[0]!;
  const fg = fractions[1]!;
  const fb = fractions[2]!;
  const stepR = 1;
  const stepG = n;
  const stepB = n * n;
  // The six orders of the fractions; the path steps along the axes in decreasing order.
  let first: number, second: number, f1: number, f2: number, f3: number;
  if (fr >= fg && fg >= fb) {
    first = stepR;
    second = stepR + stepG;
    f1 = fr;
    f2 = fg;
    f3 = fb; // r ≥ g ≥ b
  } else if (fr >= fg && fr >= fb) {
    first = stepR;
    second = stepR + stepB;
    f1 = fr;
    f2 = fb;
    f3 = fg; // r ≥ b > g
  } else if (fr >= fg) {
    first = stepB;
    second = stepB + stepR;
    f1 = fb;
    f2 = fr;
    f3 = fg; // b > r ≥ g
  } else if (fr >= fb) {
    first = stepG;
    second = stepG + stepR;
    f1 = fg;
    f2 = fr;
    f3 = fb; // g > r ≥ b
  } else if (fg >= fb) {
    first = stepG;
    second = stepG + stepB;
    f1 = fg;
    f2 = fb;
    f3 = fr; // g ≥ b > r
  } else {
    first = stepB;
    second = stepB + stepG;
    f1 = fb;
    f2 = fg;
    f3 = fr; // b > g > r
  }
  for (let channel = 0; channel < 3; channel++) {
    const c0 = lutValue(lut, corner, channel);
    const c1 = lutValue(lut, corner + first, channel);
    const c2 = lutValue(lut, corner + second, channel);
    const c3 = lutValue(lut, corner + stepR + stepG + stepB, channel);
    out[channel] = c0 * (1 - f1) + c1 * (f1 - f2) + c2 * (f2 - f3) + c3 * f3;
  }
}

/** One channel of a 1D table (a 1D LUT or a shaper) at `input`, linear between entries. */
function linear1d(table: Pick<ParsedLut, "size" | "domainMin" | "domainMax" | "data">, input: number, channel: number): number {
  const cell = gridCell(input, table.size, table.domainMin[channel] ?? 0, table.domainMax[channel] ?? 1, fractions, 0);
  const low = tableValue(table.data, cell, channel);
  return low + (tableValue(table.data, cell + 1, channel) - low) * (fractions[0] ?? 0);
}

/** Rounds to the nearest integer, ties to even (IEEE's default rounding, and the WASM core's). */
export function roundHalfEven(value: number): number {
  const rounded = Math.round(value);
  return rounded - value === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded;
}

/** Grades RGBA8 pixels in place, exactly as ImageCore.applyLut specifies (alpha untouched). */
export function referenceApplyLut(pixels: PixelBuffer, lut: ParsedLut, intensity = 1): void {
  checkPixels(pixels);
  checkLut(lut);
  const weight = checkIntensity(intensity);
  if (weight === 0) return;
  const original = [0, 0, 0];
  const input = [0, 0, 0];
  const graded = [0, 0, 0];
  for (let p = 0; p < pixels.length; p += 4) {
    for (let channel = 0; channel < 3; channel++) {
      original[channel] = pixels[p + channel]!;
      input[channel] = original[channel]! / 255;
      // A shaper's output is the cube's input (Resolve shaper files).
      if (lut.shaper) input[channel] = linear1d(lut.shaper, input[channel]!, channel);
    }
    if (lut.kind === "3d") tetrahedral(lut, input[0]!, input[1]!, input[2]!, graded);
    else for (let channel = 0; channel < 3; channel++) graded[channel] = linear1d(lut, input[channel]!, channel);
    for (let channel = 0; channel < 3; channel++) {
      const before = original[channel] ?? 0;
      const mixed = before + (255 * (graded[channel] ?? 0) - before) * weight;
      pixels[p + channel] = roundHalfEven(Math.min(255, Math.max(0, mixed)));
    }
  }
}

export function referenceHistogram(pixels: PixelBuffer, options: HistogramOptions): Histogram {
  checkPixels(pixels);
  const rgb = options.mode === "rgb";
  const counts = new Uint32Array(rgb ? 768 : 256);
  for (let p = 0; p < pixels.length; p += 4) {
    const r = pixels[p] ?? 0;
    const g = pixels[p + 1] ?? 0;
    const b = pixels[p + 2] ?? 0;
    if (rgb) {
      counts[r]! += 1;
      counts[256 + g]! += 1;
      counts[512 + b]! += 1;
    } else {
      counts[referenceLuma(r, g, b)]! += 1;
    }
  }
  const max = counts.reduce((a, b) => Math.max(a, b), 0);
  const levels = new Float32Array(counts.length);
  if (max > 0) {
    for (let i = 0; i < counts.length; i++) {
      const count = counts[i] ?? 0;
      levels[i] = options.log ? Math.log(1 + count) / Math.log(1 + max) : count / max;
    }
  }
  return { mode: options.mode, counts, levels, max };
}

export function referenceZebraMask(pixels: PixelBuffer, options: ZebraOptions): Uint8Array {
  const count = checkPixels(pixels);
  const { high, low } = zebraThresholds(options);
  const mask = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const luma = referenceLuma(pixels[i * 4] ?? 0, pixels[i * 4 + 1] ?? 0, pixels[i * 4 + 2] ?? 0);
    mask[i] = (luma >= high ? ZEBRA_MASK_HIGH : 0) | (luma <= low ? ZEBRA_MASK_LOW : 0);
  }
  return mask;
}

/** Diagonal stripes over the mask: the first half of each period along x + y + phase is painted. */
export function referenceZebraOverlay(pixels: PixelBuffer, options: ZebraOverlayOptions): Uint8ClampedArray {
  const mask = referenceZebraMask(pixels, options);
  const paint = zebraPaint(options, mask.length);
  const out = new Uint8ClampedArray(pixels.length);
  const view = new DataView(out.buffer);
  for (let y = 0; y < paint.height; y++) {
    for (let x = 0; x < paint.width; x++) {
      const i = y * paint.width + x;
      const bits = mask[i] ?? 0;
      const striped = (x + y + paint.phase) % paint.period < paint.period >> 1;
      if (bits && striped) view.setUint32(i * 4, bits & ZEBRA_MASK_HIGH ? paint.highColour : paint.lowColour, true);
    }
  }
  return out;
}
