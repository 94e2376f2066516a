// Histogram binning of RGBA8 pixels: 256 luma bins, or 3 × 256 bins (red, green, blue), and the
// normalised bar heights (linear or logarithmic) a histogram view draws.
import { luma4, lumaOf } from "./luma";

@inline function bump(counts: usize, bin: u32): void {
  const at = counts + (<usize>bin << 2);
  store<u32>(at, load<u32>(at) + 1);
}

/** Counts into `counts` (u32 × 256 for luma, × 768 for RGB), replacing what was there. */
export function histogram(src: usize, pixels: u32, rgb: bool, counts: usize): void {
  const end = src + (<usize>pixels << 2);
  let p = src;
  if (rgb) {
    memory.fill(counts, 0, 768 * 4);
    for (; p < end; p += 4) {
      const pixel = load<u32>(p);
      bump(counts, pixel & 255);
      bump(counts, 256 + ((pixel >> 8) & 255));
      bump(counts, 512 + ((pixel >> 16) & 255));
    }
    return;
  }
  memory.fill(counts, 0, 256 * 4);
  for (; p + 16 <= end; p += 16) {
    const luma = luma4(v128.load(p));
    bump(counts, i32x4.extract_lane(luma, 0));
    bump(counts, i32x4.extract_lane(luma, 1));
    bump(counts, i32x4.extract_lane(luma, 2));
    bump(counts, i32x4.extract_lane(luma, 3));
  }
  for (; p < end; p += 4) bump(counts, lumaOf(load<u32>(p)));
}

/**
 * Bar heights 0..1 for `bins` counts, all scaled by the largest count (so RGB channels stay
 * comparable). The log scale is ln(1 + count) / ln(1 + max), through the host's Math.log so that
 * every implementation of it gives bit-identical heights.
 */
export function histogramLevels(counts: usize, bins: u32, logScale: bool, levels: usize): void {
  let largest: u32 = 0;
  for (let i: u32 = 0; i < bins; i++) largest = max(largest, load<u32>(counts + (<usize>i << 2)));
  const denominator = logScale ? JSMath.log(1 + <f64>largest) : <f64>largest;
  for (let i: u32 = 0; i < bins; i++) {
    const count = <f64>load<u32>(counts + (<usize>i << 2));
    let level: f64 = 0;
    if (largest > 0) level = logScale ? JSMath.log(1 + count) / denominator : count / denominator;
    store<f32>(levels + (<usize>i << 2), <f32>level);
  }
}
