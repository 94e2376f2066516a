// A LUT as the WebGL2 renderer uploads it. The frame is 8-bit, so whatever acts on one channel at a
// time (a Resolve shaper, the input domain, or a whole 1D LUT) is computed here for the 256 input
// codes, as the WASM core does: the shader looks the codes up and interpolates only the cube. The
// cube goes up as RGBA16F in slabs of z layers, so staging memory stays small for a 129³ table.
import { LUT_OUTPUT_LIMIT } from "./constants";
import type { ParsedLut } from "./types";

export const INPUT_CODES = 256;
/** Texels staged per texSubImage3D call (about 4 MB of f32 RGBA). */
const SLAB_TEXELS = 1 << 18;

const clampOutput = (value: number) => Math.min(LUT_OUTPUT_LIMIT, Math.max(-LUT_OUTPUT_LIMIT, value));
const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/** One channel of a 1D table at `input`: domain-mapped, clamped, linear between entries (as the reference). */
function sample1d(table: Pick<ParsedLut, "size" | "domainMin" | "domainMax" | "data">, input: number, channel: number): number {
  const t = clamp01((input - table.domainMin[channel]!) / (table.domainMax[channel]! - table.domainMin[channel]!));
  const position = t * (table.size - 1);
  const cell = Math.min(Math.floor(position), table.size - 2);
  const low = clampOutput(table.data[cell * 3 + channel]!);
  const high = clampOutput(table.data[(cell + 1) * 3 + channel]!);
  return low + (high - low) * (position - cell);
}

/**
 * Per input code (x = code) the RGBA f32 texel the shader reads: for a 3D LUT the grid position 0..1
 * on each axis (after the shaper and the domain), for a 1D LUT the graded value itself.
 */
export function lutInputTable(lut: ParsedLut): Float32Array {
  const table = new Float32Array(INPUT_CODES * 4);
  for (let code = 0; code < INPUT_CODES; code++) {
    for (let channel = 0; channel < 3; channel++) {
      let input = code / 255;
      if (lut.shaper) input = sample1d(lut.shaper, input, channel);
      table[code * 4 + channel] =
        lut.kind === "1d" ? sample1d(lut, input, channel) : clamp01((input - lut.domainMin[channel]!) / (lut.domainMax[channel]! - lut.domainMin[channel]!));
    }
    table[code * 4 + 3] = 1;
  }
  return table;
}

/**
 * The cube's entries as RGBA f32, clamped to the half-float range as the WASM core clamps its table,
 * a slab of whole z layers at a time: calls `upload(zOffset, layers, texels)` for each.
 */
export function forEachCubeSlab(lut: ParsedLut, upload: (zOffset: number, layers: number, texels: Float32Array) => void): void {
  const n = lut.size;
  const layerTexels = n * n;
  const layersPerSlab = Math.max(1, Math.min(n, Math.floor(SLAB_TEXELS / layerTexels)));
  const staging = new Float32Array(layersPerSlab * layerTexels * 4);
  for (let z = 0; z < n; z += layersPerSlab) {
    const layers = Math.min(layersPerSlab, n - z);
    const first = z * layerTexels;
    const count = layers * layerTexels;
    for (let i = 0; i < count; i++) {
      staging[i * 4] = clampOutput(lut.data[(first + i) * 3]!);
      staging[i * 4 + 1] = clampOutput(lut.data[(first + i) * 3 + 1]!);
      staging[i * 4 + 2] = clampOutput(lut.data[(first + i) * 3 + 2]!);
      staging[i * 4 + 3] = 1;
    }
    upload(z, layers, staging.subarray(0, count * 4));
  }
}
