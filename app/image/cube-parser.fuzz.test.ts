// Property tests of the WASM .cube parser: hostile text never crashes, hangs or grows memory without
// bound, and randomly formatted valid files always parse to exactly the values they hold.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { ImageCore } from "./core";
import { CubeParseError } from "./cube-parse-error";
import { loadImageCore } from "./load-image-core";
import { checkLut } from "./options";

let core: ImageCore;
beforeAll(async () => {
  core = await loadImageCore();
});

const KNOWN_MESSAGE =
  /^(Failed to parse LUT file|Invalid LUT data: expected \d+ values for (\d+x\d+x\d+ LUT|\d+-point 1D LUT|\d+-point shaper and \d+x\d+x\d+ LUT), got \d+|LUT is \d+³; the largest supported is \d+³|LUT is a \d+-point 1D LUT; the largest supported has \d+ points)$/;

/** Parses and checks the outcome is either a well-formed LUT or a CubeParseError with a spec message. */
function parseSafely(text: string): "ok" | "error" {
  try {
    checkLut(core.parseCube(text, "fuzz.cube"));
    return "ok";
  } catch (error) {
    if (!(error instanceof CubeParseError)) throw error;
    expect(error.message).toMatch(KNOWN_MESSAGE);
    return "error";
  }
}

const keyword = fc.constantFrom("TITLE", "LUT_3D_SIZE", "LUT_1D_SIZE", "DOMAIN_MIN", "DOMAIN_MAX", "LUT_3D_INPUT_RANGE", "LUT_1D_INPUT_RANGE", "title", "lut_3d_size", "#", "");
const numberish = fc.oneof(
  fc.double({ noNaN: false }).map(String),
  fc.integer({ min: -3, max: 70 }).map(String),
  fc.constantFrom("1e", "-", ".", "+.5", "1e-400", "1e400", "0x1", "1,5", "١", "∞", '"x"', "1.2.3", "--1"),
  fc.string({ maxLength: 6 }),
);
const separator = fc.constantFrom(" ", "\t", "  ", "\u00a0", "\v");
const cubeishLine = fc.tuple(keyword, fc.array(fc.tuple(separator, numberish), { maxLength: 5 })).map(([word, parts]) => word + parts.map(([sep, value]) => sep + value).join(""));
const lineEnd = fc.constantFrom("\n", "\r\n", "\r");
const cubeish = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(cubeishLine, lineEnd), { maxLength: 40 }))
  .map(([bom, lines]) => (bom ? "\ufeff" : "") + lines.map(([line, end]) => line + end).join(""));

describe("hostile input", () => {
  it("arbitrary unicode text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (text) => void parseSafely(text)),
      { numRuns: 2000 },
    );
  });

  it("arbitrary bytes read as Latin-1 (binary files uploaded by mistake)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => void parseSafely(String.fromCharCode(...bytes))),
      { numRuns: 1000 },
    );
  });

  it("cube-like lines: keywords with wrong, missing or strange arguments", () => {
    fc.assert(
      fc.property(cubeish, (text) => void parseSafely(text)),
      { numRuns: 3000 },
    );
  });

  it("huge inputs finish and memory stays bounded", () => {
    const eightMegabytes = 8 * 1024 * 1024;
    const cases = [
      "1".repeat(eightMegabytes), // one token of eight million digits
      "\n".repeat(eightMegabytes),
      "0 0 0\n".repeat(eightMegabytes / 6), // far more rows than any LUT holds
      `LUT_3D_SIZE 2\nTITLE "${"x".repeat(eightMegabytes)}"\n`,
      "é".repeat(eightMegabytes / 2), // multi-byte UTF-8
      `1e${"9".repeat(eightMegabytes)} 0 0\n`,
    ];
    for (const text of cases) expect(parseSafely(text)).toBe("error");
    // Parse buffers are bounded by the text limit (×3 for UTF-8) plus the 3 MB row capacity.
    expect(core.exports.memory.buffer.byteLength).toBeLessThan(80 * 1024 * 1024);
  });
});

describe("valid files in any formatting", () => {
  const formatted = fc.tuple(fc.double({ min: -4, max: 4, noNaN: true }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 9 })).map(([value, style, digits]) => {
    const text = [String(value), value.toFixed(digits), value.toExponential(digits), value.toPrecision(digits + 1)][style]!;
    return { text, value: Math.fround(Number(text)) };
  });
  const validLut = fc
    .record({
      kind: fc.constantFrom("3d" as const, "1d" as const),
      size: fc.integer({ min: 2, max: 4 }),
      eol: lineEnd,
      sep: fc.constantFrom(" ", "\t", "   "),
      bom: fc.boolean(),
      lowerCase: fc.boolean(),
      comments: fc.boolean(),
      seed: fc.array(formatted, { minLength: 192, maxLength: 192 }),
    })
    .map((spec) => {
      const rows = spec.kind === "3d" ? spec.size ** 3 : spec.size;
      const values = spec.seed.slice(0, rows * 3);
      const sizeKeyword = spec.kind === "3d" ? "LUT_3D_SIZE" : "LUT_1D_SIZE";
      const lines = [spec.comments ? "# generated" : "", `${spec.lowerCase ? sizeKeyword.toLowerCase() : sizeKeyword} ${spec.size}`];
      for (let i = 0; i < rows; i++) {
        if (spec.comments && i % 3 === 1) lines.push("# between rows", "");
        lines.push([0, 1, 2].map((c) => values[i * 3 + c]!.text).join(spec.sep) + (spec.comments ? spec.sep : ""));
      }
      return { ...spec, text: (spec.bom ? "\ufeff" : "") + lines.join(spec.eol) + spec.eol, expected: values.map((v) => v.value) };
    });

  it("parse to the values written, as f32", () => {
    fc.assert(
      fc.property(validLut, ({ text, kind, size, expected }) => {
        const lut = core.parseCube(text);
        expect(lut).toMatchObject({ kind, size });
        expect(lut.data.length).toBe(expected.length);
        lut.data.forEach((value, i) => {
          const want = expected[i]!;
          // Within one f32 ulp of the correctly rounded value (the parser rounds through f64).
          expect(Math.abs(value - want)).toBeLessThanOrEqual(Math.abs(want) * 2 ** -23 + 1e-45);
        });
      }),
      { numRuns: 500 },
    );
  });

  it("any wrong row count names both counts", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 0, max: 250 }), (size, rowCount) => {
        fc.pre(rowCount !== size ** 3);
        const text = `LUT_3D_SIZE ${size}\n${"0.1 0.2 0.3\n".repeat(rowCount)}`;
        expect(() => core.parseCube(text)).toThrow(`Invalid LUT data: expected ${size ** 3 * 3} values for ${size}x${size}x${size} LUT, got ${rowCount * 3}`);
      }),
      { numRuns: 300 },
    );
  });
});
