// The WASM .cube parser: round trips, files as grading tools write them, and every malformed case.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { LUT_1D_MAX_SIZE, LUT_1D_MIN_SIZE, LUT_3D_MAX_SIZE, LUT_3D_MIN_SIZE, LUT_DEFAULT_SIZE, MAX_CUBE_TEXT_LENGTH } from "./constants";
import type { ImageCore } from "./core";
import { CubeParseError } from "./cube-parse-error";
import { loadImageCore } from "./load-image-core";
import { cubeText, identityCubeText, lutFromTransform } from "./test-data";

let core: ImageCore;
beforeAll(async () => {
  core = await loadImageCore();
});

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");

function parseError(text: string, fileName?: string, length?: number): CubeParseError {
  try {
    core.parseCube(text, fileName, length);
  } catch (error) {
    expect(error).toBeInstanceOf(CubeParseError);
    return error as CubeParseError;
  }
  throw new Error("expected the parse to fail");
}

/** Row `index` (red fastest) of a parsed LUT. */
const row = (data: Float32Array, index: number) => Array.from(data.subarray(index * 3, index * 3 + 3));

describe("identity cubes round-trip", () => {
  // 65 is DaVinci Resolve's default export (the cap is checked below and in lut-round-trip.test.ts).
  it.each([2, 3, 17, 33, 65])("size %i", (size) => {
    const lut = core.parseCube(identityCubeText(size, 7));
    expect(lut).toMatchObject({ size, kind: "3d", domainMin: [0, 0, 0], domainMax: [1, 1, 1], name: "Untitled LUT" });
    const expected = lutFromTransform(size, (r, g, b) => [r, g, b]);
    expect(lut.data.length).toBe(size ** 3 * 3);
    // Seven decimals, stored as f32: within half of the last written digit.
    let worst = 0;
    for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(lut.data[i]! - expected[i]!));
    expect(worst).toBeLessThanOrEqual(5e-8 + 6e-8);
  });

  it("stores every written value as the nearest f32", () => {
    const values = [0, 1, 0.5, 0.1, 1 / 3, 1e-7, 123.456, -0.25, 2.5e-3, 0.999999, 7e-45];
    const data = new Float32Array(24);
    for (let i = 0; i < 24; i++) data[i] = values[i % values.length]!;
    const text = ["LUT_3D_SIZE 2", ...Array.from({ length: 8 }, (_, i) => [0, 1, 2].map((c) => String(values[(i * 3 + c) % values.length])).join(" "))].join("\n");
    expect(Array.from(core.parseCube(text).data)).toEqual(Array.from(data));
  });

  it("defaults to a 33-point cube when no size is given", () => {
    const text = identityCubeText(33).replace("LUT_3D_SIZE 33\n", "");
    expect(core.parseCube(text)).toMatchObject({ size: 33, kind: "3d" });
  });
});

describe("files written by grading tools", () => {
  it("DaVinci Resolve: comments before the header, LUT_3D_INPUT_RANGE, ten decimals", () => {
    const lut = core.parseCube(fixture("resolve-input-range.cube"), "Resolve Warm.cube");
    expect(lut).toMatchObject({ name: "Resolve Warm", size: 3, kind: "3d", domainMin: [0, 0, 0], domainMax: [1, 1, 1] });
    expect(row(lut.data, 0)).toEqual([0, 0, 0]);
    expect(row(lut.data, 1)).toEqual([0.55, 0, 0].map(Math.fround)); // r = 0.5 × 1.1
    expect(row(lut.data, 26)).toEqual([1, 1, 0.8].map(Math.fround));
  });

  it("DaVinci Resolve: a log input range sets the same domain on all channels", () => {
    const lut = core.parseCube(fixture("resolve-log-range.cube"));
    expect(lut).toMatchObject({ size: 2, domainMin: [-0.125, -0.125, -0.125], domainMax: [1.125, 1.125, 1.125] });
  });

  it("Adobe: TITLE, DOMAIN_MIN/DOMAIN_MAX and comments", () => {
    const lut = core.parseCube(fixture("adobe-domain-title.cube"), "ignored.cube");
    expect(lut).toMatchObject({ name: "Adobe Warm Look", size: 3, kind: "3d", domainMin: [0, 0, 0], domainMax: [1, 1, 1] });
    expect(row(lut.data, 13)).toEqual([0.55, 0.5, 0.4].map(Math.fround)); // the cell centre
  });

  it("Windows tools: a UTF-8 BOM, CRLF line ends and a non-ASCII title", () => {
    const lut = core.parseCube(fixture("windows-bom-crlf.cube"));
    expect(lut).toMatchObject({ name: "Crème brûlée", size: 2 });
    expect(row(lut.data, 1)).toEqual([0, 0, 1]); // (g, b, r) of red
  });

  it("Adobe 1D: LUT_1D_SIZE with a per-channel domain", () => {
    const lut = core.parseCube(fixture("adobe-1d-domain.cube"));
    expect(lut).toMatchObject({ name: "Contrast 1D", size: 5, kind: "1d", domainMin: [0, 0, 0], domainMax: [1, 1, 2] });
    expect(row(lut.data, 1)).toEqual([0.15625, 0.15625, 0.25]);
  });

  it("DaVinci Resolve shaper file: a 1D shaper, then a 3D cube, each with its input range", () => {
    const lut = core.parseCube(fixture("resolve-shaper.cube"), "Log to Rec709.cube");
    expect(lut).toMatchObject({ name: "Log to Rec709", size: 2, kind: "3d", domainMin: [0, 0, 0], domainMax: [1, 1, 1] });
    expect(lut.shaper).toMatchObject({ size: 4, domainMin: [-0.125, -0.125, -0.125], domainMax: [1.25, 1.25, 1.25] });
    expect(row(lut.shaper!.data, 1)).toEqual([0.5, 0.5, 0.5]);
    expect(lut.data.length).toBe(24);
    expect(row(lut.data, 0)).toEqual([0, 0, 0.1].map(Math.fround));
    expect(row(lut.data, 7)).toEqual([0.9, 1, 1].map(Math.fround));
  });

  it("shaper files: either size first; without ranges the shaper takes DOMAIN_* and the cube 0..1", () => {
    const shaper = "0 0 0\n0.25 0.5 0.75\n1 1 1";
    const cube = Array.from({ length: 8 }, () => "0.5 0.5 0.5").join("\n");
    const reordered = core.parseCube(`LUT_3D_SIZE 2\nLUT_1D_SIZE 3\nLUT_3D_INPUT_RANGE 0.1 0.9\n${shaper}\n${cube}`);
    expect(reordered).toMatchObject({ size: 2, domainMin: [0.1, 0.1, 0.1], domainMax: [0.9, 0.9, 0.9], shaper: { size: 3, domainMin: [0, 0, 0], domainMax: [1, 1, 1] } });
    expect(row(reordered.shaper!.data, 1)).toEqual([0.25, 0.5, 0.75]);
    const adobeDomain = core.parseCube(`LUT_1D_SIZE 3\nLUT_3D_SIZE 2\nDOMAIN_MIN 0 0 -1\nDOMAIN_MAX 2 1 1\n${shaper}\n${cube}`);
    expect(adobeDomain).toMatchObject({ domainMin: [0, 0, 0], domainMax: [1, 1, 1], shaper: { domainMin: [0, 0, -1], domainMax: [2, 1, 1] } });
  });

  it("DaVinci Resolve 1D: LUT_1D_INPUT_RANGE", () => {
    const lut = core.parseCube(fixture("resolve-1d-input-range.cube"), "curve.cube");
    expect(lut).toMatchObject({ name: "curve", size: 4, kind: "1d", domainMin: [0, 0, 0], domainMax: [1, 1, 1] });
    expect(row(lut.data, 3)).toEqual([1, 1, 0]);
  });

  it("no TITLE: the name is the file name without its extension", () => {
    expect(core.parseCube(fixture("no-title.cube"), "Night Shift.v2.cube").name).toBe("Night Shift.v2");
    expect(core.parseCube(fixture("no-title.cube"), "C:\\luts\\Teal.cube").name).toBe("Teal");
    expect(core.parseCube(fixture("no-title.cube")).name).toBe("Untitled LUT");
    expect(core.parseCube(fixture("no-title.cube"), ".cube").name).toBe("Untitled LUT");
  });

  it("lenient reading: case, tabs, exponents, signs, comments between rows, unknown keywords, CR-only ends", () => {
    const lut = core.parseCube(fixture("lenient.cube"));
    expect(lut).toMatchObject({ name: "Lenient", size: 2, kind: "3d" });
    expect(Array.from(lut.data)).toEqual(Array.from(lutFromTransform(2, (r, g, b) => [r, g, b])));
  });
});

describe("names", () => {
  const body = cubeText({ size: 2, kind: "3d", data: lutFromTransform(2, (r, g, b) => [r, g, b]) });
  it.each([
    ['TITLE "Teal & Orange"', "Teal & Orange"],
    ["TITLE Unquoted words  ", "Unquoted words"],
    ['TITLE "Unterminated', "Unterminated"],
    ['TITLE "  padded  "', "padded"],
  ])("%s", (line, name) => {
    expect(core.parseCube(`${line}\n${body}`, "file.cube").name).toBe(name);
  });

  it("an empty TITLE falls back to the file name; the first TITLE wins", () => {
    expect(core.parseCube(`TITLE ""\n${body}`, "file.cube").name).toBe("file");
    expect(core.parseCube(`TITLE "One"\nTITLE "Two"\n${body}`).name).toBe("One");
  });
});

describe("malformed files", () => {
  const rows = (count: number) => Array.from({ length: count }, () => "0.5 0.5 0.5").join("\n");

  it.each([
    ["too few rows", `LUT_3D_SIZE 2\n${rows(7)}`, "Invalid LUT data: expected 24 values for 2x2x2 LUT, got 21"],
    ["too many rows", `LUT_3D_SIZE 2\n${rows(9)}`, "Invalid LUT data: expected 24 values for 2x2x2 LUT, got 27"],
    ["no rows at all", 'TITLE "Empty"\n', "Invalid LUT data: expected 107811 values for 33x33x33 LUT, got 0"],
    ["empty text", "", "Invalid LUT data: expected 107811 values for 33x33x33 LUT, got 0"],
    ["rows of two numbers are not data", `LUT_3D_SIZE 2\n${rows(7)}\n0.5 0.5`, "Invalid LUT data: expected 24 values for 2x2x2 LUT, got 21"],
    ["rows of four numbers are not data", `LUT_3D_SIZE 2\n${rows(7)}\n0.5 0.5 0.5 0.5`, "Invalid LUT data: expected 24 values for 2x2x2 LUT, got 21"],
    ["a row with a non-number is not data", `LUT_3D_SIZE 2\n${rows(7)}\n0.5 abc 0.5`, "Invalid LUT data: expected 24 values for 2x2x2 LUT, got 21"],
    ["a trailing comment makes a row not data", `LUT_3D_SIZE 2\n${rows(7)}\n0.5 0.5 0.5 # note`, "Invalid LUT data: expected 24 values for 2x2x2 LUT, got 21"],
    ["nan and inf are not numbers", `LUT_3D_SIZE 2\n${rows(6)}\nnan 0 0\n0 inf 0`, "Invalid LUT data: expected 24 values for 2x2x2 LUT, got 18"],
    ["values beyond f32 are not numbers", `LUT_3D_SIZE 2\n${rows(7)}\n1e39 0 0`, "Invalid LUT data: expected 24 values for 2x2x2 LUT, got 21"],
    ["a binary file", "\u0000\u0001PNG\u0000\u00ff\u00fe garbage", "Invalid LUT data: expected 107811 values for 33x33x33 LUT, got 0"],
    ["1D count", `LUT_1D_SIZE 4\n${rows(3)}`, "Invalid LUT data: expected 12 values for 4-point 1D LUT, got 9"],
    ["shaper file count", `LUT_1D_SIZE 4\nLUT_3D_SIZE 2\n${rows(11)}`, "Invalid LUT data: expected 36 values for 4-point shaper and 2x2x2 LUT, got 33"],
  ])("%s", (_case, text, message) => {
    const error = parseError(text);
    expect(error.message).toBe(message);
  });

  it.each([
    ["size 1", "LUT_3D_SIZE 1"],
    ["an absurd size", "LUT_3D_SIZE 4294967297"],
    ["a fractional size", "LUT_3D_SIZE 2.5"],
    ["a fractional size above the limit", "LUT_3D_SIZE 300.5"],
    ["a negative size", "LUT_3D_SIZE -2"],
    ["a size that is not a number", "LUT_3D_SIZE big"],
    ["a missing size", "LUT_3D_SIZE"],
    ["two sizes on the line", "LUT_3D_SIZE 2 2"],
    ["the size declared twice", "LUT_3D_SIZE 2\nLUT_3D_SIZE 2"],
    ["the 1D size declared twice", "LUT_1D_SIZE 2\nLUT_1D_SIZE 2"],
    ["a shaper file with an empty shaper range", "LUT_1D_SIZE 2\nLUT_3D_SIZE 2\nLUT_1D_INPUT_RANGE 1 0"],
    ["DOMAIN_MIN with two numbers", "LUT_3D_SIZE 2\nDOMAIN_MIN 0 0"],
    ["DOMAIN_MAX with a word", "LUT_3D_SIZE 2\nDOMAIN_MAX 1 one 1"],
    ["DOMAIN_MAX below DOMAIN_MIN", "LUT_3D_SIZE 2\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 0 1"],
    ["an empty input range", "LUT_3D_SIZE 2\nLUT_3D_INPUT_RANGE 0.5 0.5"],
    ["an input range with one number", "LUT_3D_SIZE 2\nLUT_3D_INPUT_RANGE 1"],
  ])("%s: Failed to parse LUT file", (_case, header) => {
    // Well-formed rows, so only the header can be at fault.
    const error = parseError(`${header}\n${rows(8)}`);
    expect(error.message).toBe("Failed to parse LUT file");
    expect(error.detail).not.toBe(error.message);
  });

  it.each([
    ["a 3D size above the limit", `LUT_3D_SIZE ${LUT_3D_MAX_SIZE + 1}`, `LUT is ${LUT_3D_MAX_SIZE + 1}³; the largest supported is ${LUT_3D_MAX_SIZE}³`],
    ["the Adobe maximum", "LUT_3D_SIZE 256", `LUT is 256³; the largest supported is ${LUT_3D_MAX_SIZE}³`],
    ["a shaper file's cube", `LUT_1D_SIZE 16\nLUT_3D_SIZE 257`, `LUT is 257³; the largest supported is ${LUT_3D_MAX_SIZE}³`],
    ["a 1D size above the limit", `LUT_1D_SIZE ${LUT_1D_MAX_SIZE + 1}`, `LUT is a ${LUT_1D_MAX_SIZE + 1}-point 1D LUT; the largest supported has ${LUT_1D_MAX_SIZE} points`],
  ])("%s: says the real reason", (_case, header, message) => {
    const error = parseError(`${header}\n${rows(8)}`);
    expect(error.message).toBe(message);
  });

  it("text longer than the limit fails before it is copied anywhere", () => {
    const error = parseError("#".repeat(MAX_CUBE_TEXT_LENGTH + 1));
    expect(error.message).toBe("Failed to parse LUT file");
    expect(error.detail).toMatch(/larger than/);
  });

  it("a file too long to read whole names its size from its head", () => {
    // A 257³ cube is ~450 MB: the page reads only its head and passes the file's length.
    const head = `# from a 257-point export\nLUT_3D_SIZE 257\n${rows(1000)}`;
    const error = parseError(head, "huge.cube", 257 ** 3 * 27);
    expect(error.message).toBe(`LUT is 257³; the largest supported is ${LUT_3D_MAX_SIZE}³`);
    expect(error.detail).toMatch(/larger than/);
    const whole = parseError(`LUT_3D_SIZE 300\n${"#".repeat(MAX_CUBE_TEXT_LENGTH)}`);
    expect(whole.message).toBe(`LUT is 300³; the largest supported is ${LUT_3D_MAX_SIZE}³`);
    expect(parseError(`LUT_3D_SIZE 65\n`, "long.cube", MAX_CUBE_TEXT_LENGTH + 1).message).toBe("Failed to parse LUT file");
  });

  it("a header after the rows still counts (lenient ordering)", () => {
    const lut = core.parseCube(`${rows(8)}\nLUT_3D_SIZE 2\n`);
    expect(lut.size).toBe(2);
  });

  it("keeps working after failures (no state leaks between parses)", () => {
    parseError("LUT_3D_SIZE 2\nDOMAIN_MIN 2 2 2");
    const lut = core.parseCube(`TITLE "After"\nLUT_3D_SIZE 2\n${rows(8)}`);
    expect(lut).toMatchObject({ name: "After", domainMin: [0, 0, 0], domainMax: [1, 1, 1] });
  });
});

describe("limits shared by WASM and TS", () => {
  it("the TS constants are the ones compiled into the WASM", () => {
    const { exports } = core;
    expect([exports.MIN_3D_SIZE.value, exports.MAX_3D_SIZE.value, exports.MIN_1D_SIZE.value, exports.MAX_1D_SIZE.value, exports.DEFAULT_3D_SIZE.value]).toEqual([
      LUT_3D_MIN_SIZE,
      LUT_3D_MAX_SIZE,
      LUT_1D_MIN_SIZE,
      LUT_1D_MAX_SIZE,
      LUT_DEFAULT_SIZE,
    ]);
  });

  // The largest cube is 2 M rows of text to write and parse: seconds of CPU, more on a busy machine.
  it("the largest sizes parse", { timeout: 180_000 }, () => {
    expect(core.parseCube(identityCubeText(LUT_3D_MAX_SIZE, 4)).size).toBe(LUT_3D_MAX_SIZE);
    const ramp = Array.from({ length: LUT_1D_MAX_SIZE }, (_, i) => {
      const v = (i / (LUT_1D_MAX_SIZE - 1)).toFixed(6);
      return `${v} ${v} ${v}`;
    });
    expect(core.parseCube(`LUT_1D_SIZE ${LUT_1D_MAX_SIZE}\n${ramp.join("\n")}`)).toMatchObject({ kind: "1d", size: LUT_1D_MAX_SIZE });
  });
});
