// Rec. 709 luma (0.2126, 0.7152, 0.0722) of 8-bit RGB in 16-bit fixed point, rounded to 0..255.
//
// Integer weights that sum to exactly 65536 make the result exact and identical in WASM, the TS
// reference and any future port; they differ from the real weights by under 0.003 of a level.
export const LUMA_R = 13933;
export const LUMA_G = 46871;
export const LUMA_B = 4732;
const ROUND = 32768;

@inline export function lumaOf(pixel: u32): u32 {
  return ((pixel & 255) * LUMA_R + ((pixel >> 8) & 255) * LUMA_G + ((pixel >> 16) & 255) * LUMA_B + ROUND) >> 16;
}

/** Luma of four RGBA8 pixels, one per i32 lane. */
@inline export function luma4(pixels: v128): v128 {
  const byte = i32x4.splat(255);
  const r = v128.and(pixels, byte);
  const g = v128.and(i32x4.shr_u(pixels, 8), byte);
  const b = v128.and(i32x4.shr_u(pixels, 16), byte);
  let sum = i32x4.mul(r, i32x4.splat(LUMA_R));
  sum = i32x4.add(sum, i32x4.mul(g, i32x4.splat(LUMA_G)));
  sum = i32x4.add(sum, i32x4.mul(b, i32x4.splat(LUMA_B)));
  return i32x4.shr_u(i32x4.add(sum, i32x4.splat(ROUND)), 16);
}
