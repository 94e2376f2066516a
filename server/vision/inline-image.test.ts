// Provider bodies with an inline frame must be exactly the JSON that JSON.stringify would have made (what a frame
// carries, whatever text came in as the image, is in server/http/frame-bytes.test.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InlineImage, encodeJsonBody } from "./inline-image";

describe("encodeJsonBody", () => {
  const image = new InlineImage("image/jpeg", Buffer.from("any bytes at all \u00ff\u0000"));

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
    expect(() => new InlineImage('image/jpeg";x', Buffer.from("AAAA"))).toThrow(TypeError);
  });
});
