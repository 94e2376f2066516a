import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readJson } from "./api";
import { parseJsonBytes } from "./json-body";

const image = randomBytes(60_000);
const base64 = image.toString("base64");
const dataUrl = `data:image/jpeg;base64,${base64}`;

/** What JSON.parse says about the same bytes: the value, or that it throws. */
function reference(text: string): { value: unknown } | "throws" {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return "throws";
  }
}

function expectSameAsJsonParse(text: string) {
  const expected = reference(text);
  if (expected === "throws") {
    expect(() => parseJsonBytes(Buffer.from(text, "utf8"))).toThrow(SyntaxError);
  } else {
    expect(parseJsonBytes(Buffer.from(text, "utf8")).value).toEqual(expected.value);
  }
}

describe("parseJsonBytes", () => {
  it("decodes a frame's data URL on the way and gives the same value as JSON.parse", () => {
    const text = JSON.stringify({ imageData: dataUrl, object: "person", maxObjects: 10 });
    const parsed = parseJsonBytes(Buffer.from(text));
    expect(parsed.value).toEqual(JSON.parse(text));
    expect(parsed.decoded).toHaveLength(1);
    expect(parsed.decoded[0]!.value).toBe(dataUrl);
    expect(parsed.decoded[0]!.payloadStart).toBe("data:image/jpeg;base64,".length);
    expect(parsed.decoded[0]!.bytes.equals(image)).toBe(true);
  });

  it("decodes bare base64 too", () => {
    const parsed = parseJsonBytes(Buffer.from(JSON.stringify({ imageBase64: base64, intent: "portrait" })));
    expect(parsed.decoded[0]).toMatchObject({ value: base64, payloadStart: 0 });
    expect(parsed.decoded[0]!.bytes.equals(image)).toBe(true);
  });

  it("agrees with JSON.parse on bodies that only look like the fast path", () => {
    const big = base64.slice(0, 40_000);
    const cases = [
      `{"imageData":"data:image/jpeg;base64,${big}\u0001"}`, // a raw control character: invalid JSON
      `{"imageData":"data:image/jpeg;base64,${big}\n"}`,
      `{"imageData":"data:image/jpeg;base64,${big}\\n"}`, // an escape in the big string
      `{"imageData":"data:image/jpeg;base64,${big}\\u0041AAA"}`,
      `{"imageData":"${big}", "imageData":"small"}`, // a duplicate key: the last wins
      `{"${big}":1}`, // the big string as a key
      `{"__proto__":"${big}"}`,
      `{"imageData":"${big}",}`, // a trailing comma
      `{"imageData":"${big}" "object":"x"}`, // a missing comma
      `{"imageData":"${big}"`, // unterminated object
      `{"imageData":"${big}`, // unterminated string
      `{"a":"\\"","imageData":"${big}","b":"\\\\"}`, // escaped quotes and backslashes around it
      `{"a":[[[[["${big}"]]]]]}`, // deeper than the fast path looks
      `["${big}","${big}"]`,
      `"${big}"`,
      `{"imageData":"${big}","label":"café ☕"}`, // non-ASCII elsewhere
      `{"imageData":"data:image/jpeg;base64,${big.slice(0, -1)}"}`, // not a multiple of 4
      `{"imageData":"data:image/jpeg;base64,${big.slice(0, -4)}=AAA"}`, // padding in the middle
    ];
    for (const text of cases) expectSameAsJsonParse(text);
  });

  it("never disagrees with JSON.parse, whatever surrounds a large base64 string", () => {
    const big = base64.slice(0, 44_000);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 200 }), (value, junk, cut) => {
        const text = JSON.stringify({ before: value, imageData: `data:image/png;base64,${big}`, after: value });
        expectSameAsJsonParse(text);
        // Damaged copies: cut short or with a few characters spliced in.
        expectSameAsJsonParse(text.slice(0, Math.max(0, text.length - cut)));
        const at = Math.min(text.length, cut);
        expectSameAsJsonParse(text.slice(0, at) + junk + text.slice(at));
      }),
      { numRuns: 150 },
    );
  });

  it("with a field to leave as bytes, still agrees with JSON.parse once the stand-in is given its text back", () => {
    const big = base64.slice(0, 44_000);
    const restored = (text: string): unknown => {
      const parsed = parseJsonBytes(Buffer.from(text, "utf8"), { bytesFor: "imageData" });
      const entry = parsed.decoded.find((decoded) => decoded.text);
      if (!entry) return parsed.value;
      const value = parsed.value as Record<string, unknown>;
      expect(value.imageData).toBe(entry.value);
      expect(Buffer.from(entry.text!.toString("latin1"), "base64").equals(entry.bytes)).toBe(true);
      return { ...value, imageData: `${entry.value.slice(0, entry.payloadStart)}${entry.text!.toString("latin1")}` };
    };
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 200 }), (value, junk, cut) => {
        const text = JSON.stringify({ before: value, imageData: `data:image/png;base64,${big}`, after: value });
        for (const variant of [text, text.slice(0, Math.max(0, text.length - cut)), text.slice(0, Math.min(text.length, cut)) + junk + text.slice(Math.min(text.length, cut))]) {
          const expected = reference(variant);
          if (expected === "throws") expect(() => restored(variant)).toThrow(SyntaxError);
          else expect(restored(variant)).toEqual(expected.value);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("hands the decoded bytes back beside the validated input, for the very string they decode", async () => {
    const request = new Request("http://localhost/api", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ imageData: dataUrl }) });
    const { input, decoded } = await readJson(request, z.object({ imageData: z.string() }));
    expect(input).toEqual({ imageData: dataUrl });
    expect(decoded).toHaveLength(1);
    expect(decoded[0]!.value).toBe(input.imageData);
    expect(decoded[0]!.bytes.equals(image)).toBe(true);
  });
});
