// The count-edit rules: "5" or "8-12"; anything else is invalid.
import { describe, expect, it } from "vitest";
import { parseCountInput } from "./people-count";

describe("parseCountInput", () => {
  it.each([
    ["5", { count: 5, min: null, max: null }],
    [" 0 ", { count: 0, min: null, max: null }],
    ["8-12", { count: 10, min: 8, max: 12 }],
    ["12 - 8", { count: 10, min: 8, max: 12 }],
    ["3-4", { count: 4, min: 3, max: 4 }],
  ])("reads %j", (text, expected) => {
    expect(parseCountInput(text)).toEqual(expected);
  });

  it.each(["", "-5", "5.5", "abc", "8-", "8-12-14", "1e3", "８"])("refuses %j", (text) => {
    expect(parseCountInput(text)).toBeNull();
  });
});
