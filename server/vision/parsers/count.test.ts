import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCountAnswer } from "./count";

const NUMBER_WORDS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const inWords = (n: number) => (n < 20 ? NUMBER_WORDS[n]! : `${TENS[Math.floor(n / 10)]}${n % 10 ? `-${NUMBER_WORDS[n % 10]}` : ""}`);

/** Filler prose with no digits and no number words in it. */
const prose = fc
  .array(fc.constantFrom("I", "can", "see", "a", "crowd", "of", "people", "roughly", "here", "in", "the", "frame", "maybe", "likely", "standing", ",", ".", "!", "~"), {
    maxLength: 8,
  })
  .map((w) => w.join(" "));
const CAN_MEAN_A_NUMBER = new RegExp(
  `\\d|\\b(${[...NUMBER_WORDS, ...TENS.filter(Boolean), "dozen", "hundred", "no one", "nobody", "none", "no people", "no persons", "no humans", "not a single"].join("|")})`,
  "i",
);

describe("parseCountAnswer", () => {
  it.each([
    ["8-12", { count: 10, min: 8, max: 12 }],
    ["8 – 12 people", { count: 10, min: 8, max: 12 }],
    ["Between 8 and 12 people are visible.", { count: 10, min: 8, max: 12 }],
    ["12-8", { count: 10, min: 8, max: 12 }],
    ["from 3 to 4", { count: 4, min: 3, max: 4 }],
    ["about 10", { count: 10, min: null, max: null }],
    ["There are approximately 1,200 people.", { count: 1200, min: null, max: null }],
    ["ten", { count: 10, min: null, max: null }],
    ["Twenty-one people", { count: 21, min: null, max: null }],
    ["one or two", { count: 2, min: 1, max: 2 }],
    ["a dozen", { count: 12, min: null, max: null }],
    ["No one is in the frame.", { count: 0, min: null, max: null }],
    ["none", { count: 0, min: null, max: null }],
    ["5-5", { count: 5, min: null, max: null }],
    ["**7**", { count: 7, min: null, max: null }],
  ])("%j → %j", (answer, expected) => {
    expect(parseCountAnswer(answer)).toEqual(expected);
  });

  it.each(["", "I can't tell.", "many people", "a 1080p camera", "10.5", "someone is standing there", "lots"])("finds no count in %j", (answer) => {
    expect(parseCountAnswer(answer)).toBeNull();
  });

  it("never throws, and only answers sane whole numbers", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (answer) => {
        const result = parseCountAnswer(answer);
        if (result === null) return;
        expect(Number.isInteger(result.count) && result.count >= 0 && result.count <= 100_000).toBe(true);
        expect(result.min === null).toBe(result.max === null);
        if (result.min !== null && result.max !== null) {
          expect(result.min).toBeLessThan(result.max);
          expect(result.count).toBe(Math.round((result.min + result.max) / 2));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("never invents a number: without digits or number words there is no count", () => {
    fc.assert(
      fc.property(fc.oneof(prose, fc.string({ maxLength: 80 })), (answer) => {
        if (CAN_MEAN_A_NUMBER.test(answer)) return;
        expect(parseCountAnswer(answer)).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it("a range in prose is read as its two ends, in either order", () => {
    fc.assert(
      fc.property(prose, fc.nat(5000), fc.nat(5000), fc.constantFrom("-", " - ", "–", " to ", "~"), prose, (before, a, b, dash, after) => {
        fc.pre(a !== b);
        const result = parseCountAnswer(`${before} ${a}${dash}${b} ${after}`);
        expect(result).toEqual({ count: Math.round((Math.min(a, b) + Math.max(a, b)) / 2), min: Math.min(a, b), max: Math.max(a, b) });
      }),
    );
  });

  it("a single number, in digits or words, is the count", () => {
    fc.assert(
      fc.property(prose, fc.nat(99), fc.boolean(), prose, (before, n, words, after) => {
        const result = parseCountAnswer(`${before} about ${words ? inWords(n) : n} people ${after}`);
        expect(result).toEqual({ count: n, min: null, max: null });
      }),
    );
  });
});
