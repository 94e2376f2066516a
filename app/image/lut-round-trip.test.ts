// LUTs as grading tools write them, end to end in the WASM core: .cube text (3D cubes up to the size
// cap, including Resolve's default 65³; a 1D LUT; a Resolve shaper file) parsed back to the values
// written and graded like the TS reference. The same files are checked in WebGL2 by
// tests/e2e/image-renderer.spec.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { LUT_3D_MAX_SIZE } from "./constants";
import type { ImageCore } from "./core";
import { loadImageCore } from "./load-image-core";
import { referenceApplyLut } from "./reference";
import { cubeText, noiseFrame, photoLikeFrame, roundTripLut, type RoundTripCase } from "./test-data";
import type { ParsedLut } from "./types";

let core: ImageCore;
beforeAll(async () => {
  core = await loadImageCore();
});

function largestDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
}

/** Six decimals (as Resolve writes them): every value comes back within half the last digit, as f32. */
function expectValuesWritten(parsed: Float32Array, written: Float32Array): void {
  expect(parsed.length).toBe(written.length);
  expect(largestDifference(parsed, written)).toBeLessThanOrEqual(5e-7 + 1e-7);
}

const cubeSizes = [...new Set([2, 33, 65, 129, LUT_3D_MAX_SIZE])]; // 65³ is DaVinci Resolve's default export
const cases: Array<[string, RoundTripCase, number]> = [
  ...cubeSizes.map((size): [string, RoundTripCase, number] => [`a ${size}³ cube${size === LUT_3D_MAX_SIZE ? " (the largest supported)" : ""}`, "3d", size]),
  ["a 4096-point 1D LUT with a wide domain", "1d", 4096],
  ["a Resolve shaper file: a 1024-point shaper, then a 33³ cube", "shaper", 1024],
];

describe("round trips: .cube text → parse → grade, against the TS reference", () => {
  // A 129³ file is 58 MB of text: writing it takes seconds of CPU, more on a busy machine.
  it.each(cases)("%s", { timeout: 180_000 }, (_name, kind, size) => {
    const written = roundTripLut(kind, size);
    const parsed: ParsedLut = core.parseCube(cubeText(written), "ignored.cube");
    expect(parsed).toMatchObject({ name: written.name, kind: written.kind, size: written.size, domainMin: written.domainMin, domainMax: written.domainMax });
    expectValuesWritten(parsed.data, written.data);
    if (written.shaper) {
      expect(parsed.shaper).toMatchObject({ size: written.shaper.size, domainMin: written.shaper.domainMin, domainMax: written.shaper.domainMax });
      expectValuesWritten(parsed.shaper!.data, written.shaper.data);
    } else {
      expect(parsed.shaper).toBeUndefined();
    }
    // A photo at full strength, and noise through the intensity blend.
    for (const [frame, intensity] of [
      [photoLikeFrame(160, 90, size), 1],
      [noiseFrame(96, 64, size), 0.7],
    ] as const) {
      const wasm = frame.slice();
      const reference = frame.slice();
      core.applyLut(wasm, parsed, intensity);
      referenceApplyLut(reference, parsed, intensity);
      expect(largestDifference(wasm, reference)).toBeLessThanOrEqual(1);
      // And it really grades.
      expect(largestDifference(wasm, frame)).toBeGreaterThan(10);
    }
  });

  it("a shaper changes the grade: the same cube without it grades differently", () => {
    const parsed = core.parseCube(cubeText(roundTripLut("shaper", 256)));
    const frame = photoLikeFrame(64, 36, 5);
    const withShaper = frame.slice();
    const withoutShaper = frame.slice();
    core.applyLut(withShaper, parsed);
    core.applyLut(withoutShaper, { ...parsed, shaper: undefined });
    expect(largestDifference(withShaper, withoutShaper)).toBeGreaterThan(10);
  });
});
