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

/** .cube text for a LUT (values written with `digits` decimals). */
export function cubeText(lut: Pick<ParsedLut, "size" | "kind" | "data"> & { name?: string }, digits = 6, eol = "\n"): string {
  const lines: string[] = [];
  if (lut.name) lines.push(`TITLE "${lut.name}"`);
  lines.push(`${lut.kind === "3d" ? "LUT_3D_SIZE" : "LUT_1D_SIZE"} ${lut.size}`);
  for (let i = 0; i < lut.data.length; i += 3) {
    lines.push(`${lut.data[i]!.toFixed(digits)} ${lut.data[i + 1]!.toFixed(digits)} ${lut.data[i + 2]!.toFixed(digits)}`);
  }
  return lines.join(eol) + eol;
}

export function identityCubeText(size: number, digits = 6): string {
  return cubeText({ size, kind: "3d", data: lutFromTransform(size, (r, g, b) => [r, g, b]) }, digits);
}
