// The built-in presets: valid 17³ cubes for the WASM parser, and each looks like its name.
import { beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_LUTS } from "./builtin-luts";
import type { ImageCore } from "./core";
import { loadImageCore } from "./load-image-core";
import { referenceLuma } from "./reference";
import { photoLikeFrame } from "./test-data";
import type { ParsedLut } from "./types";

let core: ImageCore;
const parsed = new Map<string, ParsedLut>();
beforeAll(async () => {
  core = await loadImageCore();
  for (const lut of BUILTIN_LUTS) parsed.set(lut.name, core.parseCube(lut.lutData));
});

/** One colour graded through a preset. */
function grade(name: string, rgb: [number, number, number]): [number, number, number] {
  const pixels = new Uint8ClampedArray([...rgb, 255]);
  core.applyLut(pixels, parsed.get(name)!);
  return [pixels[0]!, pixels[1]!, pixels[2]!];
}

const chroma = ([r, g, b]: number[]) => Math.max(r!, g!, b!) - Math.min(r!, g!, b!);
const luma = ([r, g, b]: number[]) => referenceLuma(r!, g!, b!);

function averageOver(name: string | null, measure: (rgb: number[]) => number): number {
  const frame = photoLikeFrame(64, 36, 4);
  if (name) core.applyLut(frame, parsed.get(name)!);
  let sum = 0;
  for (let i = 0; i < frame.length; i += 4) sum += measure([frame[i]!, frame[i + 1]!, frame[i + 2]!]);
  return sum / (frame.length / 4);
}

describe("built-in presets", () => {
  it("are the seven named presets as 17³ cubes the WASM parser accepts", () => {
    expect(BUILTIN_LUTS.map((lut) => lut.name)).toEqual(["Warm", "Cool", "Cinematic", "Vintage", "Black & White", "Vibrant", "Moody"]);
    for (const lut of BUILTIN_LUTS) {
      expect(lut.size).toBe(17);
      expect(parsed.get(lut.name)).toMatchObject({ name: lut.name, size: 17, kind: "3d" });
      expect(parsed.get(lut.name)!.data.every((v) => v >= 0 && v <= 1)).toBe(true);
    }
  });

  it("keep a grey ramp in order (no inversions or posterising)", () => {
    for (const lut of BUILTIN_LUTS) {
      let previous = -1;
      for (let v = 0; v <= 255; v += 5) {
        const y = luma(grade(lut.name, [v, v, v]));
        expect(y, `${lut.name} at ${v}`).toBeGreaterThanOrEqual(previous);
        previous = y;
      }
    }
  });

  it("Warm tints neutrals towards amber; Cool towards blue", () => {
    const [wr, , wb] = grade("Warm", [128, 128, 128]);
    expect(wr - wb).toBeGreaterThanOrEqual(12);
    const [cr, , cb] = grade("Cool", [128, 128, 128]);
    expect(cb - cr).toBeGreaterThanOrEqual(8);
  });

  it("Cinematic: teal shadows, orange skin, a matte black", () => {
    const [sr, sg, sb] = grade("Cinematic", [40, 40, 40]);
    expect(sb).toBeGreaterThan(sr + 4);
    expect(sg).toBeGreaterThan(sr);
    const skin = grade("Cinematic", [194, 150, 130]);
    expect(skin[0] - skin[2]).toBeGreaterThan(194 - 130);
    expect(luma(grade("Cinematic", [0, 0, 0]))).toBeGreaterThanOrEqual(4);
  });

  it("Vintage: lifted blacks, no pure white, muted colour", () => {
    expect(luma(grade("Vintage", [0, 0, 0]))).toBeGreaterThanOrEqual(15);
    expect(luma(grade("Vintage", [255, 255, 255]))).toBeLessThan(240);
    expect(averageOver("Vintage", chroma)).toBeLessThan(averageOver(null, chroma) * 0.8);
  });

  it("Black & White has no colour left", () => {
    for (const rgb of [
      [255, 0, 0],
      [30, 200, 90],
      [12, 34, 250],
      [194, 150, 130],
    ] as const) {
      expect(chroma(grade("Black & White", [...rgb]))).toBeLessThanOrEqual(1);
    }
    // Panchromatic mix: green reads lighter than blue.
    expect(luma(grade("Black & White", [0, 200, 0]))).toBeGreaterThan(luma(grade("Black & White", [0, 0, 200])));
  });

  it("Vibrant boosts muted colours the most", () => {
    const muted = grade("Vibrant", [140, 120, 110]);
    expect(chroma(muted)).toBeGreaterThan(chroma([140, 120, 110]) * 1.4);
    expect(averageOver("Vibrant", chroma)).toBeGreaterThan(averageOver(null, chroma) * 1.2);
  });

  it("Moody is darker and less colourful", () => {
    expect(averageOver("Moody", luma)).toBeLessThan(averageOver(null, luma) * 0.85);
    expect(averageOver("Moody", chroma)).toBeLessThan(averageOver(null, chroma) * 0.85);
    expect(luma(grade("Moody", [255, 255, 255]))).toBeLessThan(240);
  });
});
