// Deterministic test data for the image core's tests and benchmarks: frames, LUTs and .cube texts.
import type { ParsedLut } from "./types";

/** mulberry32: a small seeded PRNG, so every failing case can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform noise: every channel (alpha too) random, the hardest case for caches and branches. */
export function noiseFrame(width: number, height: number, seed = 1): Uint8ClampedArray {
  const random = seededRandom(seed);
  const pixels = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.floor(random() * 256);
  return pixels;
}

/** Something like a photo: smooth colour gradients, a bright sky band, a dark corner and sensor noise. */
export function photoLikeFrame(width: number, height: number, seed = 1): Uint8ClampedArray {
  const random = seededRandom(seed);
  const pixels = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const v = y / height;
      const noise = (random() - 0.5) * 6;
      const sky = v < 0.25 ? 90 * (1 - v * 4) : 0;
      const shadow = u < 0.2 && v > 0.7 ? -60 : 0;
      const i = (y * width + x) * 4;
      pixels[i] = 60 + 150 * u + sky + shadow + noise;
      pixels[i + 1] = 80 + 120 * (1 - Math.abs(u - 0.5) * 2) * (1 - v * 0.5) + sky + shadow + noise;
      pixels[i + 2] = 50 + 170 * v * (1 - u) + sky * 1.4 + shadow + noise;
      pixels[i + 3] = 255;
    }
  }
  return pixels;
}

/** The rows of a 3D LUT, red fastest, computed from a colour transform on 0..1 values. */
export function lutFromTransform(size: number, transform: (r: number, g: number, b: number) => [number, number, number]): Float32Array {
  const data = new Float32Array(size ** 3 * 3);
  let i = 0;
  for (let b = 0; b < size; b++) {
    for (let g = 0; g < size; g++) {
      for (let r = 0; r < size; r++) {
        const out = transform(r / (size - 1), g / (size - 1), b / (size - 1));
        data[i++] = out[0];
        data[i++] = out[1];
        data[i++] = out[2];
      }
    }
  }
  return data;
}

export function makeLut(overrides: Partial<ParsedLut> = {}): ParsedLut {
  const size = overrides.size ?? 17;
  return {
    name: "Test LUT",
    size,
    kind: "3d",
    domainMin: [0, 0, 0],
    domainMax: [1, 1, 1],
    ...overrides,
    data: overrides.data ?? lutFromTransform(size, (r, g, b) => [r, g, b]),
  };
}

/** A LUT with random outputs (including a little outside 0..1), the hardest case for interpolation. */
export function randomLut(size: number, seed: number, overrides: Partial<ParsedLut> = {}): ParsedLut {
  const random = seededRandom(seed);
  const kind = overrides.kind ?? "3d";
  const data = new Float32Array((kind === "3d" ? size ** 3 : size) * 3);
  for (let i = 0; i < data.length; i++) data[i] = random() * 1.2 - 0.1;
  return makeLut({ size, kind, data, ...overrides });
}

/**
 * A smooth look with crossed channels, curves and outputs a little outside 0..1: what a real grade
 * does, so round trips exercise every tetrahedron and the clamp.
 */
export function lookTransform(r: number, g: number, b: number): [number, number, number] {
  return [0.9 * r ** 1.4 + 0.15 * g - 0.05 * b + 0.02 * Math.sin(9 * b), 0.1 * r + 0.8 * Math.sqrt(g) + 0.1 * b * b, -0.04 + 0.2 * r * g + 0.9 * b ** 0.8 + 0.1 * Math.cos(7 * r)];
}

/** A 1D table of `size` entries, red fastest per row, computed per channel from 0..1 positions. */
export function curveRows(size: number, curve: (x: number, channel: number) => number): Float32Array {
  const data = new Float32Array(size * 3);
  for (let i = 0; i < size; i++) for (let channel = 0; channel < 3; channel++) data[i * 3 + channel] = curve(i / (size - 1), channel);
  return data;
}

/** A log-like shaper curve per channel (as a Resolve shaper compresses the input before its cube). */
export const shaperCurve = (x: number, channel: number) => Math.log2(1 + (7 + channel) * x) / Math.log2(8 + channel);

/** A contrast curve per channel, for 1D LUTs. */
export const contrastCurve = (x: number, channel: number) => x + (0.12 + 0.03 * channel) * Math.sin(2 * Math.PI * x) - 0.02;

type CubeLut = Pick<ParsedLut, "size" | "kind" | "data"> & Partial<Pick<ParsedLut, "name" | "domainMin" | "domainMax" | "shaper">>;

const isDefaultDomain = (min?: readonly number[], max?: readonly number[]) => (!min || min.every((v) => v === 0)) && (!max || max.every((v) => v === 1));
const uniform = (values: readonly number[]) => values.every((v) => v === values[0]);

/**
 * .cube text for a LUT (values written with `digits` decimals), as grading tools write it: a domain
 * other than 0..1 as DOMAIN_MIN/DOMAIN_MAX, and a LUT with a shaper as Resolve writes it (both sizes
 * and input ranges first, then the shaper's rows, then the cube's).
 */
export function cubeText(lut: CubeLut, digits = 6, eol = "\n"): string {
  const lines: string[] = [];
  const rows = (data: Float32Array) => {
    for (let i = 0; i < data.length; i += 3) lines.push(`${data[i]!.toFixed(digits)} ${data[i + 1]!.toFixed(digits)} ${data[i + 2]!.toFixed(digits)}`);
  };
  if (lut.name) lines.push(`TITLE "${lut.name}"`);
  const { shaper } = lut;
  if (shaper) {
    if (!uniform(shaper.domainMin) || !uniform(shaper.domainMax) || !uniform(lut.domainMin ?? [0]) || !uniform(lut.domainMax ?? [1]))
      throw new RangeError("Resolve input ranges are one min and one max");
    lines.push(`LUT_1D_SIZE ${shaper.size}`, `LUT_1D_INPUT_RANGE ${shaper.domainMin[0]} ${shaper.domainMax[0]}`);
    lines.push(`LUT_3D_SIZE ${lut.size}`, `LUT_3D_INPUT_RANGE ${lut.domainMin?.[0] ?? 0} ${lut.domainMax?.[0] ?? 1}`);
    rows(shaper.data);
  } else {
    lines.push(`${lut.kind === "3d" ? "LUT_3D_SIZE" : "LUT_1D_SIZE"} ${lut.size}`);
    if (!isDefaultDomain(lut.domainMin, lut.domainMax)) lines.push(`DOMAIN_MIN ${lut.domainMin!.join(" ")}`, `DOMAIN_MAX ${lut.domainMax!.join(" ")}`);
  }
  rows(lut.data);
  return lines.join(eol) + eol;
}

export function identityCubeText(size: number, digits = 6): string {
  return cubeText({ size, kind: "3d", data: lutFromTransform(size, (r, g, b) => [r, g, b]) }, digits);
}

export type RoundTripCase = "3d" | "1d" | "shaper";

/**
 * The deterministic LUTs of the round-trip tests (WASM and WebGL2 against the TS reference): a 3D
 * look of `size`³, a 1D contrast curve of `size` points with a wide domain, or a Resolve shaper file
 * (a `size`-point log shaper over -0.125..1.125, then a 33³ look). The same text in Node and in the browser.
 */
export function roundTripLut(kind: RoundTripCase, size: number): ParsedLut {
  const name = `Round trip ${kind} ${size}`;
  if (kind === "1d") return makeLut({ name, kind, size, domainMin: [-0.05, 0, 0], domainMax: [1, 1.1, 1], data: curveRows(size, contrastCurve) });
  const look = makeLut({ name, size: kind === "3d" ? size : 33, data: lutFromTransform(kind === "3d" ? size : 33, lookTransform) });
  if (kind === "3d") return look;
  return { ...look, shaper: { size, domainMin: [-0.125, -0.125, -0.125], domainMax: [1.125, 1.125, 1.125], data: curveRows(size, shaperCurve) } };
}
