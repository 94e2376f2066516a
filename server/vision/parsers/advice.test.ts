import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ADVICE_SECTIONS, type Advice, type Recommendations } from "#app/schemas/vision";
import { EMPTY_RECOMMENDATIONS, parseAdvice } from "./advice";

describe("parseAdvice", () => {
  it("reads the asked-for JSON with strings and {tip, detail}", () => {
    const answer =
      '```json\n{"exposure": {"tip": "Lower ISO to 400.", "detail": "The sky clips at ISO 1600."}, "whiteBalance": "Set 5600K.", "focus": null, "lighting": {"tip": "Add a key light"}, "overall": "Close."}\n```';
    expect(parseAdvice(answer)).toEqual({
      exposure: { tip: "Lower ISO to 400.", detail: "The sky clips at ISO 1600." },
      whiteBalance: "Set 5600K.",
      focus: null,
      lighting: "Add a key light",
      overall: "Close.",
    });
  });

  it("reads renamed, nested keys and headed prose", () => {
    expect(parseAdvice('{"recommendations": {"white_balance_tips": "Warmer.", "Overall Assessment": "Good."}}')).toMatchObject({ whiteBalance: "Warmer.", overall: "Good." });
    expect(parseAdvice("1. **Exposure**: Open up one stop.\n2. Focus: Tap to focus on the face.\n   It hunts in low light.\n3. Lighting - Move the lamp left.")).toEqual({
      ...EMPTY_RECOMMENDATIONS,
      exposure: "Open up one stop.",
      focus: "Tap to focus on the face. It hunts in low light.",
      lighting: "Move the lamp left.",
    });
  });

  it("keeps advice in no known shape as the overall advice, and has nothing for an empty answer", () => {
    expect(parseAdvice("The shot is fine as it is; maybe tilt down slightly.")).toEqual({
      ...EMPTY_RECOMMENDATIONS,
      overall: "The shot is fine as it is; maybe tilt down slightly.",
    });
    expect(parseAdvice("   ")).toEqual(EMPTY_RECOMMENDATIONS);
  });

  const sentence = fc.constantFrom("Lower the ISO.", "Warm it up to 5600K.", "Focus on the eyes.", "Add a fill light at 45°.", "Looks great.", "Open the iris 1 stop.");
  const advice: fc.Arbitrary<Advice> = fc.oneof(fc.constant(null), sentence, fc.record({ tip: sentence, detail: sentence }));
  const recommendations: fc.Arbitrary<Recommendations> = fc.record({ exposure: advice, whiteBalance: advice, focus: advice, lighting: advice, overall: advice });

  it("reads any advice back from JSON, fenced or not", () => {
    fc.assert(
      fc.property(recommendations, fc.boolean(), fc.constantFrom("", "Here is my advice:\n"), (expected, fenced, before) => {
        fc.pre(ADVICE_SECTIONS.some((s) => expected[s] !== null));
        const json = JSON.stringify(expected);
        expect(parseAdvice(`${before}${fenced ? `\`\`\`json\n${json}\n\`\`\`` : json}`)).toEqual(expected);
      }),
    );
  });

  it("never throws, gives each section as text or {tip, detail}, and invents no numbers", () => {
    const messy = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.json().map((j) => `Advice: ${j}`),
      fc.jsonValue().map((v) => JSON.stringify({ exposure: v, focus: { tip: v, detail: v }, overall: [v, "x"] })),
    );
    fc.assert(
      fc.property(messy, (answer) => {
        const result = parseAdvice(answer);
        const digitsOf = (text: string) => text.match(/\d+/g) ?? [];
        for (const section of ADVICE_SECTIONS) {
          const value = result[section];
          if (value === null) continue;
          const texts = typeof value === "string" ? [value] : [value.tip, value.detail];
          for (const text of texts) {
            expect(text.length).toBeGreaterThan(0);
            for (const digits of digitsOf(text)) expect(answer).toContain(digits);
          }
        }
      }),
      { numRuns: 1500 },
    );
  });
});
