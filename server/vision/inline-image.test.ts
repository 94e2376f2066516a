// Provider bodies with an inline frame must be exactly the JSON that JSON.stringify would have made, and a frame
// only ever carries base64 that needs no escaping, whatever text came in as the image.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { markerImage } from "../../tests/fakes/moondream/images";
import { ProblemError } from "../errors";
import { prepareFrame } from "./frames";
import { BASE64_ALPHABET, InlineImage, encodeJsonBody } from "./inline-image";

describe("encodeJsonBody", () => {
  const image = new InlineImage("image/jpeg", Buffer.from("any bytes at all \u00ff\u0000").toString("base64"));

  it("writes the same JSON as JSON.stringify, with the data URL as image_url", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.integer({ min: 1, max: 500 }), fc.boolean(), (object, maxObjects, stream) => {
        const body = { image_url: image, object, settings: { max_objects: maxObjects }, stream };
        const bytes = encodeJsonBody(body);
        expect(JSON.parse(bytes.toString("utf8"))).toEqual({ image_url: image.dataUrl, object, settings: { max_objects: maxObjects }, stream });
        expect(bytes.equals(Buffer.from(JSON.stringify({ image_url: image.dataUrl, object, settings: { max_objects: maxObjects }, stream })))).toBe(true);
      }),
    );
  });

  it("handles a body with nothing but the image, and bodies without one", () => {
    expect(JSON.parse(encodeJsonBody({ image_url: image }).toString())).toEqual({ image_url: image.dataUrl });
    expect(JSON.parse(encodeJsonBody({ question: 'say "hi" ✓' }).toString())).toEqual({ question: 'say "hi" ✓' });
    expect(JSON.parse(encodeJsonBody({ image_url: image.dataUrl, object: "x" }).toString())).toEqual({ image_url: image.dataUrl, object: "x" });
  });

  it("refuses a MIME type that would break out of the data URL", () => {
    expect(() => new InlineImage('image/jpeg";x', "AAAA")).toThrow(TypeError);
  });
});

describe("prepareFrame's base64", () => {
  it("is canonical, whatever was mixed into the text (or the frame is refused with a 4xx)", async () => {
    const jpeg = await markerImage({ width: 64, height: 48 });
    const base64 = jpeg.toString("base64");
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('"', "\\", "\n", " ", "\u0000", "\u2028", "é", "=", "-", "_", "%", "}", "\ud83d\ude00")), { maxLength: 4 }),
        fc.boolean(),
        async (insertions, asDataUrl) => {
          let text = base64;
          for (const [at, char] of insertions) text = text.slice(0, at % (text.length + 1)) + char + text.slice(at % (text.length + 1));
          let frame;
          try {
            frame = await prepareFrame(asDataUrl ? `data:image/jpeg;base64,${text}` : text);
          } catch (error) {
            expect(error).toBeInstanceOf(ProblemError);
            expect((error as ProblemError).status).toBeGreaterThanOrEqual(400);
            expect((error as ProblemError).status).toBeLessThan(500);
            return;
          }
          const sent = frame.image.base64.toString("latin1");
          expect(sent).toMatch(BASE64_ALPHABET);
          expect(Buffer.from(sent, "base64").equals(frame.bytes)).toBe(true);
          expect(JSON.parse(encodeJsonBody({ image_url: frame.image, object: "x" }).toString())).toEqual({ image_url: frame.image.dataUrl, object: "x" });
        },
      ),
      { numRuns: 150 },
    );
  });
});
