// The outline parser: every command Moondream's paths use, absolute and relative, written back absolute; and
// the answers that must be refused (empty, outside the box, not a path) with a message that says why.
import { describe, expect, it } from "vitest";
import { normalisePath, PathError } from "./path";

const refused = (text: string) => {
  try {
    normalisePath(text);
  } catch (error) {
    expect(error).toBeInstanceOf(PathError);
    return (error as Error).message;
  }
  throw new Error(`"${text}" was accepted`);
};

describe("normalisePath", () => {
  it("keeps an absolute polygon as it is", () => {
    expect(normalisePath("M 0.5 0 L 1 0.5 L 0.5 1 L 0 0.5 Z")).toBe("M 0.5 0 L 1 0.5 L 0.5 1 L 0 0.5 Z");
  });

  it("makes relative commands absolute, H and V lines, and further pairs after M lines", () => {
    expect(normalisePath("m0.1,0.1 l0.5,0 v0.5 h-0.5 z")).toBe("M 0.1 0.1 L 0.6 0.1 L 0.6 0.6 L 0.1 0.6 Z");
    expect(normalisePath("M0.1 0.1 0.9 0.1 0.9 0.9Z")).toBe("M 0.1 0.1 L 0.9 0.1 L 0.9 0.9 Z");
    expect(normalisePath("M 0.2 0.2 H 0.8 V 0.8 Z")).toBe("M 0.2 0.2 L 0.8 0.2 L 0.8 0.8 Z");
  });

  it("reads curves (C, Q, and relative c, q) with their control points", () => {
    expect(normalisePath("M 0 0.5 C 0 0 1 0 1 0.5 Q 0.5 1 0 0.5 Z")).toBe("M 0 0.5 C 0 0 1 0 1 0.5 Q 0.5 1 0 0.5 Z");
    expect(normalisePath("M 0 0.5 c 0 -0.5 1 -0.5 1 0 q -0.5 0.5 -1 0 z")).toBe("M 0 0.5 C 0 0 1 0 1 0.5 Q 0.5 1 0 0.5 Z");
  });

  it("starts a new subpath after Z from where the last one began", () => {
    expect(normalisePath("M 0.1 0.1 L 0.4 0.1 L 0.4 0.4 Z m 0.5 0.5 l 0.2 0 l 0 0.2 z")).toBe("M 0.1 0.1 L 0.4 0.1 L 0.4 0.4 Z M 0.6 0.6 L 0.8 0.6 L 0.8 0.8 Z");
  });

  it("reads exponents and numbers without separators, and clamps a model's rounding past 0–1", () => {
    expect(normalisePath("M5e-1 0L1 .5L.5 1L-0.01 0.5Z")).toBe("M 0.5 0 L 1 0.5 L 0.5 1 L 0 0.5 Z");
    expect(normalisePath("M 0 0 L 1.01 0 L 1.01 1.015 Z")).toBe("M 0 0 L 1 0 L 1 1 Z");
  });

  it("refuses empty outlines and outlines that enclose nothing", () => {
    expect(refused("")).toBe("the outline is empty");
    expect(refused("   ")).toBe("the outline is empty");
    expect(refused("M 0.5 0.5")).toBe("the outline encloses nothing");
    expect(refused("M 0.5 0.5 L 0.6 0.6 Z")).toBe("the outline encloses nothing");
  });

  it("refuses points outside 0–1, absolute or reached by relative steps, control points included", () => {
    expect(refused("M 0.5 0 L 1.6 0.5 L 0.5 1 Z")).toMatch(/outside its box \(1\.6 is not within 0–1\)/);
    expect(refused("M 0.9 0.9 l 0.2 0 l 0 0.05 z")).toMatch(/outside its box/);
    expect(refused("M 0 0.5 C 0 -0.4 1 0 1 0.5 L 0 1 Z")).toMatch(/outside its box/);
    expect(refused("M 0 0 L 1 0 L NaN 1 Z")).toMatch(/where a command/);
  });

  it("refuses what is not a path: unknown commands, missing numbers, no leading M", () => {
    expect(refused("M 0 0 A 0.5 0.5 0 0 1 1 1 Z")).toMatch(/has "A 0.5 0.5 0 " where a command/);
    expect(refused("M 0 0 L 1")).toBe("L needs 2 numbers");
    expect(refused("L 0 0 L 1 1 L 0 1 Z")).toBe("the outline does not start with M");
    expect(refused("0.5 0.5 L 1 1")).toBe("the outline has numbers without a command");
    expect(refused('M 0 0 L 1 0 L 1 1 Z"/><script>')).toMatch(/where a command/);
  });
});
