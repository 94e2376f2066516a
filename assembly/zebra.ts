// Zebra exposure masks and their striped overlay. Bit 1 marks luma at or above the high threshold,
// bit 2 luma at or below the low threshold; the caller disables a side by passing 256 / -1.
import { luma4, lumaOf } from "./luma";

export const ZEBRA_HIGH: u8 = 1;
export const ZEBRA_LOW: u8 = 2;

@inline function maskOf(luma: v128, high: v128, low: v128): v128 {
  const over = v128.and(i32x4.ge_s(luma, high), i32x4.splat(ZEBRA_HIGH));
  const under = v128.and(i32x4.le_s(luma, low), i32x4.splat(ZEBRA_LOW));
  return v128.or(over, under);
}

/** One mask byte per RGBA8 pixel, 16 pixels per iteration. */
export function zebraMask(src: usize, pixels: u32, high: i32, low: i32, out: usize): void {
  const end = src + (<usize>pixels << 2);
  const highV = i32x4.splat(high);
  const lowV = i32x4.splat(low);
  let p = src;
  let o = out;
  for (; p + 64 <= end; p += 64, o += 16) {
    const m0 = maskOf(luma4(v128.load(p)), highV, lowV);
    const m1 = maskOf(luma4(v128.load(p, 16)), highV, lowV);
    const m2 = maskOf(luma4(v128.load(p, 32)), highV, lowV);
    const m3 = maskOf(luma4(v128.load(p, 48)), highV, lowV);
    v128.store(o, i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_u(m0, m1), i16x8.narrow_i32x4_u(m2, m3)));
  }
  for (; p < end; p += 4, o++) {
    const luma = <i32>lumaOf(load<u32>(p));
    store<u8>(o, (luma >= high ? ZEBRA_HIGH : 0) | (luma <= low ? ZEBRA_LOW : 0));
  }
}

/**
 * Paints diagonal stripes (half of each `period`, moving with `phase`) where the mask is set:
 * `highColour` over high zebra, else `lowColour` over low zebra, transparent elsewhere.
 * Colours are RGBA8 as little-endian u32 (alpha carries the overlay opacity).
 */
export function zebraOverlay(
  mask: usize, width: u32, height: u32, period: u32, phase: u32, highColour: u32, lowColour: u32, out: usize,
): void {
  const half = period >> 1;
  let m = mask;
  let o = out;
  for (let y: u32 = 0; y < height; y++) {
    let stripe = (y + phase) % period; // position along the diagonal, advanced with x
    for (let x: u32 = 0; x < width; x++, m++, o += 4) {
      const bits = load<u8>(m);
      let colour: u32 = 0;
      if (bits != 0 && stripe < half) colour = (bits & ZEBRA_HIGH) != 0 ? highColour : lowColour;
      store<u32>(o, colour);
      stripe++;
      if (stripe == period) stripe = 0;
    }
  }
}
