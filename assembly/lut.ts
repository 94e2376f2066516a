// LUT grading of RGBA8 pixels: 3D tables with tetrahedral interpolation (one pixel per v128, four
// pixels per loop turn), optionally behind a 1D shaper, and 1D tables through per-channel byte
// tables. Alpha passes through.
//
// Because input is 8-bit, everything that depends on one channel's value (domain mapping, cell
// index, fraction) is precomputed per LUT into 3 × 256 vectors. The per-pixel work is then branch
// free: three vector loads give the cell and fractions, one compare + bitmask orders the fractions
// (a data-dependent 6-way branch mispredicts on noisy footage and cost 2× here), four vector loads
// fetch the tetrahedron's vertices, and four pixels' results are packed to bytes by saturating
// narrows. Rounding is to nearest, ties to even, as in the TS reference: results are computed as
// ROUNDING_BIAS + value, whose bit pattern minus the bias's is the rounded integer, and the
// saturating narrows clamp it to 0..255 (exact for |value| < 2^23; larger values need a clamp).

// Prepared 3D table layout: 3 axes × 256 input values × v128, then size³ RGBA f32 entries.
// An axis vector holds the fraction in its own lane (r: 0, g: 1, b: 2), zeros in the other two,
// and the byte offset of the cell along that axis in lane 3, so adding the r, g and b vectors as
// integers yields [fr, fg, fb, offset of the lower corner] in one register.
const AXIS_BYTES = 4096;
export const LUT3D_HEADER_BYTES = 3 * AXIS_BYTES;
export const LUT1D_TABLE_BYTES = 3072; // 3 × 256 f32: graded value ×255 for each channel and input byte

const ENTRY_BYTES = 16;
// LUT outputs are clamped to the half-float range, as the WebGL path's RGBA16F texture stores them;
// display values beyond it are meaningless and would overflow f32 once scaled by 255.
const OUTPUT_LIMIT: f32 = 65504;
// Adding 2^23 to a float of magnitude below 2^23 leaves it rounded to an integer (nearest, ties to
// even) in the low mantissa bits.
const ROUNDING_BIAS: f32 = 8388608;

/**
 * Cell index and fraction of every 8-bit input along one axis, clamped to the domain. The input is
 * v / 255, or with a shaper (`inputs` not 0) the shaper's output for v (see prepareShaper).
 */
function fillAxis(axis: usize, lane: i32, size: i32, stride: i32, min: f64, max: f64, inputs: usize): void {
  const last = size - 1;
  for (let v = 0; v < 256; v++) {
    const input = inputs ? load<f64>(inputs + ((<usize>lane << 8) + <usize>v) * 8) : <f64>v / 255;
    let t = (input - min) / (max - min);
    if (!(t > 0)) t = 0;
    else if (t > 1) t = 1;
    const position = t * last;
    // The top of the range uses the last cell with fraction 1, so corner + 1 never leaves the grid.
    let cell = <i32>Math.floor(position);
    if (cell > last - 1) cell = last - 1;
    const entry = axis + (<usize>v << 4);
    v128.store(entry, i32x4.splat(0));
    store<f32>(entry + (<usize>lane << 2), <f32>(position - cell));
    store<i32>(entry, cell * stride, 12);
  }
}

/**
 * Builds the prepared table at `table` from `size`³ RGB f32 rows (the parser's output order),
 * behind a shaper when `inputs` is not 0 (the shaper's outputs from prepareShaper): a shaper only
 * changes where each 8-bit input lands in the cube, so it costs nothing per pixel.
 * Returns whether every entry is small enough for the rounding trick (|output| < 2^23 / 255, which
 * any sane LUT is): interpolation never leaves the entries' range (the vertex weights are a convex
 * combination), so grading can then skip the clamp and let the saturating narrows clamp.
 */
export function prepareLut3d(
  data: usize, size: i32,
  minR: f64, minG: f64, minB: f64, maxR: f64, maxG: f64, maxB: f64,
  table: usize, inputs: usize,
): bool {
  const strideG = size * ENTRY_BYTES;
  fillAxis(table, 0, size, ENTRY_BYTES, minR, maxR, inputs);
  fillAxis(table + AXIS_BYTES, 1, size, strideG, minG, maxG, inputs);
  fillAxis(table + 2 * AXIS_BYTES, 2, size, strideG * size, minB, maxB, inputs);
  const entries = table + LUT3D_HEADER_BYTES;
  const count = <usize>size * size * size;
  const scale = f32x4.splat(255);
  const limit = f32x4.splat(OUTPUT_LIMIT);
  let outside = i32x4.splat(0);
  for (let i: usize = 0; i < count; i++) {
    const row = data + i * 12;
    let rgb = f32x4(load<f32>(row), load<f32>(row, 4), load<f32>(row, 8), 0);
    rgb = f32x4.mul(f32x4.max(f32x4.min(rgb, limit), f32x4.neg(limit)), scale);
    v128.store(entries + i * ENTRY_BYTES, rgb);
    outside = v128.or(outside, beyondRoundingRange(rgb));
  }
  return !v128.any_true(outside);
}

/** Lanes too large for the rounding trick (|value| ≥ 2^23), which need clamping first. */
@inline function beyondRoundingRange(values: v128): v128 {
  return f32x4.ge(f32x4.abs(values), f32x4.splat(ROUNDING_BIAS));
}

/**
 * Writes to `target` a copy of the prepared table at `source` whose entries are blended with the
 * identity by `intensity` (returning whether grading may skip the clamp, as prepareLut3d does). Tetrahedral interpolation reproduces the identity exactly wherever the
 * input lies inside the domain, so grading with the blended table equals blending the graded
 * pixel with the original: for domains that cover 0..1 the intensity then costs nothing per pixel.
 */
export function mixLut3d(
  source: usize, size: i32, intensity: f32,
  minR: f32, minG: f32, minB: f32, maxR: f32, maxG: f32, maxB: f32,
  target: usize,
): bool {
  memory.copy(target, source, LUT3D_HEADER_BYTES);
  const weight = f32x4.splat(intensity);
  const last = <f32>(size - 1);
  const min = f32x4(minR, minG, minB, 0);
  const span = f32x4.div(f32x4.mul(f32x4(maxR - minR, maxG - minG, maxB - minB, 0), f32x4.splat(255)), f32x4.splat(last));
  const from = source + LUT3D_HEADER_BYTES;
  const to = target + LUT3D_HEADER_BYTES;
  let outside = i32x4.splat(0);
  let i: usize = 0;
  for (let b = 0; b < size; b++) {
    for (let g = 0; g < size; g++) {
      for (let r = 0; r < size; r++, i += ENTRY_BYTES) {
        const identity = f32x4.add(f32x4.mul(min, f32x4.splat(255)), f32x4.mul(f32x4(<f32>r, <f32>g, <f32>b, 0), span));
        const graded = v128.load(from + i);
        const mixed = f32x4.add(identity, f32x4.mul(f32x4.sub(graded, identity), weight));
        v128.store(to + i, mixed);
        outside = v128.or(outside, beyondRoundingRange(mixed));
      }
    }
  }
  return !v128.any_true(outside);
}

// Per order of the fractions, 32 bytes: a swizzle that sorts [fr, fg, fb, offset] into
// [f1 ≥ f2 ≥ f3, 0], then the byte offsets from the lower corner of the tetrahedron's second and
// third vertices (u32): the path from the lower to the upper corner steps along the axes in order
// of decreasing fraction. The order is the bitmask of [fr ≥ fg, fg ≥ fb, fr ≥ fb, lane 3 ≥ lane 3];
// the last bit is always set (lane 3 holds a small integer, never NaN as a float), hence 16 slots
// of which the upper 8 are used.
const tetrahedra = memory.data(16 * 32);

function setTetrahedron(order: u32, a: u32, b: u32, c: u32, steps: usize): void {
  const at = tetrahedra + (<usize>(order | 8) << 5);
  for (let i: u32 = 0; i < 4; i++) {
    store<u8>(at + i, <u8>(a * 4 + i));
    store<u8>(at + 4 + i, <u8>(b * 4 + i));
    store<u8>(at + 8 + i, <u8>(c * 4 + i));
    store<u8>(at + 12 + i, 255); // out of range: the swizzle yields 0
  }
  const first = load<u32>(steps + (<usize>a << 2));
  store<u32>(at, first, 16);
  store<u32>(at, first + load<u32>(steps + (<usize>b << 2)), 20);
}

const axisSteps = memory.data(12);

function fillTetrahedra(size: u32): void {
  store<u32>(axisSteps, ENTRY_BYTES);
  store<u32>(axisSteps, size * ENTRY_BYTES, 4);
  store<u32>(axisSteps, size * size * ENTRY_BYTES, 8);
  setTetrahedron(0b111, 0, 1, 2, axisSteps); // r ≥ g ≥ b
  setTetrahedron(0b101, 0, 2, 1, axisSteps); // r ≥ b > g
  setTetrahedron(0b001, 2, 0, 1, axisSteps); // b > r ≥ g
  setTetrahedron(0b110, 1, 0, 2, axisSteps); // g > r ≥ b
  setTetrahedron(0b010, 1, 2, 0, axisSteps); // g ≥ b > r
  setTetrahedron(0b000, 2, 1, 0, axisSteps); // b > g > r
  setTetrahedron(0b011, 0, 1, 2, axisSteps); // impossible orders: any valid path
  setTetrahedron(0b100, 0, 1, 2, axisSteps);
}

/**
 * One pixel, given the addresses of its three axis vectors: graded RGB in lanes 0..2 as
 * ROUNDING_BIAS + value (so the low byte of each lane is the 8-bit result).
 */
@inline function gradePixel(r: usize, g: usize, b: usize, entries: usize, stepAll: usize, mix: bool, original: v128, weight: v128, clamp: bool): v128 {
  const axes = i32x4.add(i32x4.add(v128.load(r), v128.load(g)), v128.load(b));
  const corner = entries + <usize>i32x4.extract_lane(axes, 3);
  const greater = f32x4.ge(i32x4.shuffle(axes, axes, 0, 1, 0, 3), i32x4.shuffle(axes, axes, 1, 2, 2, 3));
  const tetrahedron = tetrahedra + (<usize>i32x4.bitmask(greater) << 5);
  const sorted = i8x16.swizzle(axes, v128.load(tetrahedron));
  const c0 = v128.load(corner);
  const c1 = v128.load(corner + <usize>load<u32>(tetrahedron, 16));
  const c2 = v128.load(corner + <usize>load<u32>(tetrahedron, 20));
  const c3 = v128.load(corner + stepAll);
  let graded = f32x4.add(c0, f32x4.mul(f32x4.sub(c1, c0), i32x4.shuffle(sorted, sorted, 0, 0, 0, 0)));
  graded = f32x4.add(graded, f32x4.mul(f32x4.sub(c2, c1), i32x4.shuffle(sorted, sorted, 1, 1, 1, 1)));
  graded = f32x4.add(graded, f32x4.mul(f32x4.sub(c3, c2), i32x4.shuffle(sorted, sorted, 2, 2, 2, 2)));
  if (mix) graded = f32x4.add(original, f32x4.mul(f32x4.sub(graded, original), weight));
  if (clamp) graded = f32x4.pmax(f32x4.pmin(graded, f32x4.splat(255)), f32x4.splat(0));
  return f32x4.add(graded, f32x4.splat(ROUNDING_BIAS));
}

@inline function bytesToF32x4(bytes: v128): v128 {
  return f32x4.convert_i32x4_u(bytes);
}

/** Grades four RGBA8 pixels from `p` to `out`. */
@inline function gradeFour(p: usize, out: usize, table: usize, stepAll: usize, mix: bool, weight: v128, clamp: bool): void {
  const source = v128.load(p);
  // Addresses of each pixel's r, g and b axis vectors, on the scalar ALUs: extracting them as lanes
  // of a vector costs two SIMD µops each, and measured 15 % slower. (Moving the corner offset or the
  // fraction order to scalar code as well measured slower still: those stay in vectors.)
  const t0 = load<u32>(p), t1 = load<u32>(p, 4), t2 = load<u32>(p, 8), t3 = load<u32>(p, 12);
  const gBase = table + AXIS_BYTES, bBase = table + 2 * AXIS_BYTES;
  let o0 = weight, o1 = weight, o2 = weight, o3 = weight;
  if (mix) {
    const low = i16x8.extend_low_i8x16_u(source);
    const high = i16x8.extend_high_i8x16_u(source);
    o0 = bytesToF32x4(i32x4.extend_low_i16x8_u(low));
    o1 = bytesToF32x4(i32x4.extend_high_i16x8_u(low));
    o2 = bytesToF32x4(i32x4.extend_low_i16x8_u(high));
    o3 = bytesToF32x4(i32x4.extend_high_i16x8_u(high));
  }
  const entries = table + LUT3D_HEADER_BYTES;
  const g0 = gradePixel(table + ((<usize>t0 & 0xff) << 4), gBase + ((<usize>t0 >> 4) & 0xff0), bBase + ((<usize>t0 >> 12) & 0xff0), entries, stepAll, mix, o0, weight, clamp);
  const g1 = gradePixel(table + ((<usize>t1 & 0xff) << 4), gBase + ((<usize>t1 >> 4) & 0xff0), bBase + ((<usize>t1 >> 12) & 0xff0), entries, stepAll, mix, o1, weight, clamp);
  const g2 = gradePixel(table + ((<usize>t2 & 0xff) << 4), gBase + ((<usize>t2 >> 4) & 0xff0), bBase + ((<usize>t2 >> 12) & 0xff0), entries, stepAll, mix, o2, weight, clamp);
  const g3 = gradePixel(table + ((<usize>t3 & 0xff) << 4), gBase + ((<usize>t3 >> 4) & 0xff0), bBase + ((<usize>t3 >> 12) & 0xff0), entries, stepAll, mix, o3, weight, clamp);
  const bias = i32x4.splat(0x4b000000);
  // Signed saturation first (so large values stay positive in i16), then unsigned to bytes.
  const low = i16x8.narrow_i32x4_s(i32x4.sub(g0, bias), i32x4.sub(g1, bias));
  const high = i16x8.narrow_i32x4_s(i32x4.sub(g2, bias), i32x4.sub(g3, bias));
  v128.store(out, v128.bitselect(source, i8x16.narrow_i16x8_u(low, high), i32x4.splat(0xff000000)));
}

// Up to three leftover pixels are graded through this block as a batch of four.
const tail = memory.data(16, 16);

/**
 * Grades `pixels` RGBA8 pixels from `src` to `dst` (which may be the same buffer). `clamp` may be
 * false only for tables that prepareLut3d or mixLut3d said need none.
 */
export function applyLut3d(src: usize, dst: usize, pixels: u32, table: usize, size: i32, intensity: f32, clamp: bool): void {
  fillTetrahedra(<u32>size);
  const stepAll = <usize>(ENTRY_BYTES * (1 + size + size * size));
  const mix = intensity < 1;
  const weight = f32x4.splat(intensity);
  const whole = <usize>pixels & ~3;
  for (let i: usize = 0; i < whole; i += 4) gradeFour(src + (i << 2), dst + (i << 2), table, stepAll, mix, weight, clamp);
  const rest = (<usize>pixels - whole) << 2;
  if (rest) {
    memory.copy(tail, src + (whole << 2), rest);
    gradeFour(tail, tail, table, stepAll, mix, weight, clamp);
    memory.copy(dst + (whole << 2), tail, rest);
  }
}

@inline function clampOutput(value: f32): f32 {
  return Mathf.max(Mathf.min(value, OUTPUT_LIMIT), -OUTPUT_LIMIT);
}

/** A 1D table's value on one channel for the 8-bit input v: domain-mapped, clamped, linear between entries. */
function sample1d(data: usize, size: i32, channel: i32, min: f64, max: f64, v: i32): f64 {
  const last = size - 1;
  let t = (<f64>v / 255 - min) / (max - min);
  if (!(t > 0)) t = 0;
  else if (t > 1) t = 1;
  const position = t * last;
  let cell = <i32>Math.floor(position);
  if (cell > last - 1) cell = last - 1;
  const fraction = position - cell;
  const low = <f64>clampOutput(load<f32>(data + <usize>(cell * 3 + channel) * 4));
  const high = <f64>clampOutput(load<f32>(data + <usize>((cell + 1) * 3 + channel) * 4));
  return low + (high - low) * fraction;
}

@inline function pick(channel: i32, r: f64, g: f64, b: f64): f64 {
  return channel == 0 ? r : channel == 1 ? g : b;
}

/**
 * The 1D table sampled for each channel and input byte, into `out`: as f32 ×255 (a 1D grade's table) or as f64
 * unscaled (a shaper's outputs). Inlined with a constant `scaled`, so each caller's loop has no branch in it.
 */
@inline function sampleChannels(
  data: usize, size: i32,
  minR: f64, minG: f64, minB: f64, maxR: f64, maxG: f64, maxB: f64,
  out: usize, scaled: bool,
): void {
  for (let channel = 0; channel < 3; channel++) {
    const min = pick(channel, minR, minG, minB);
    const max = pick(channel, maxR, maxG, maxB);
    for (let v = 0; v < 256; v++) {
      const value = sample1d(data, size, channel, min, max, v);
      const at = <usize>(channel * 256 + v);
      if (scaled) store<f32>(out + at * 4, <f32>(value * 255));
      else store<f64>(out + at * 8, value);
    }
  }
}

/** Per channel, the 1D LUT's value (×255) for each input byte, linearly interpolated. */
export function prepareLut1d(
  data: usize, size: i32,
  minR: f64, minG: f64, minB: f64, maxR: f64, maxG: f64, maxB: f64,
  table: usize,
): void {
  sampleChannels(data, size, minR, minG, minB, maxR, maxG, maxB, table, true);
}

export const SHAPER_INPUTS_BYTES = 3 * 256 * 8;

/** A shaper's output (f64, unscaled) for each channel and input byte: what prepareLut3d feeds its cube. */
export function prepareShaper(
  data: usize, size: i32,
  minR: f64, minG: f64, minB: f64, maxR: f64, maxG: f64, maxB: f64,
  out: usize,
): void {
  sampleChannels(data, size, minR, minG, minB, maxR, maxG, maxB, out, false);
}

// 3 × 256 output bytes for the current 1D grade and intensity.
const byteTable = memory.data(768);

export function applyLut1d(src: usize, dst: usize, pixels: u32, table: usize, intensity: f32): void {
  for (let i = 0; i < 768; i++) {
    const original = <f32>(i & 255);
    const graded = load<f32>(table + (<usize>i << 2));
    const value = original + (graded - original) * intensity;
    store<u8>(byteTable + i, !(value > 0) ? 0 : value >= 255 ? 255 : <u8>nearest<f32>(value));
  }
  const end = src + (<usize>pixels << 2);
  let out = dst;
  for (let p = src; p < end; p += 4, out += 4) {
    const pixel = load<u32>(p);
    const r = <u32>load<u8>(byteTable + (pixel & 255));
    const g = <u32>load<u8>(byteTable + 256 + ((pixel >> 8) & 255));
    const b = <u32>load<u8>(byteTable + 512 + ((pixel >> 16) & 255));
    store<u32>(out, r | (g << 8) | (b << 16) | (pixel & 0xff000000));
  }
}
