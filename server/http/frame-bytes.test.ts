// A frame the body reader leaves as bytes (json-body.ts `bytesFor`, the AI routes' FRAME_BODY) must come out of
// the HTTP edge (aiFrame) and the model's preparation exactly as its text would: the same frame sent on, or the same refusal with the same problem.
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { markerImage } from "../../tests/fakes/moondream/images";
import { ProblemError } from "../errors";
import { parseJsonBytes } from "./json-body";
import { prepareForModel } from "../vision/frames";
import { aiFrame, withFrameField } from "./frame-input";
import { BASE64_ALPHABET, encodeJsonBody } from "../vision/inline-image";

type Outcome =
  { problem: { status: number; message: string; init: unknown } } | { frame: { bytes: Buffer; mimeType: string; width: number; height: number; dataUrl: string; body: Buffer } };

async function outcome(body: Buffer, bytesFor: string | undefined, field: string): Promise<Outcome> {
  const { value, decoded } = parseJsonBytes(body, bytesFor ? { bytesFor } : {});
  const input = (value as Record<string, string>)[field]!;
  try {
    const frame = await withFrameField(field, () => prepareForModel(aiFrame(input, decoded)));
    return {
      frame: {
        bytes: frame.bytes,
        mimeType: frame.mimeType,
        width: frame.width,
        height: frame.height,
        dataUrl: frame.image.dataUrl,
        body: encodeJsonBody({ image_url: frame.image, object: "x" }),
      },
    };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    return { problem: { status: error.status, message: error.message, init: error.init } };
  }
}

let jpeg: Buffer;
let png: Buffer;
let webp: Buffer;
beforeAll(async () => {
  jpeg = await markerImage({ width: 640, height: 480, noise: 20 });
  png = await markerImage({ width: 200, height: 150, format: "png", noise: 20 });
  webp = await sharp(randomBytes(200 * 200 * 3), { raw: { width: 200, height: 200, channels: 3 } })
    .webp({ quality: 100 })
    .toBuffer();
});

describe("a frame read as bytes", () => {
  it("is taken as bytes, with no string of the image, and sent on byte for byte", async () => {
    const dataUrl = `data:image/jpeg;base64,${jpeg.toString("base64")}`;
    const body = Buffer.from(JSON.stringify({ imageData: dataUrl, object: "person" }));
    const { value, decoded } = parseJsonBytes(body, { bytesFor: "imageData" });
    const standIn = (value as { imageData: string }).imageData;
    expect(standIn.startsWith("data:image/jpeg;base64,")).toBe(true);
    expect(standIn.length).toBeLessThan(100);
    expect(value).toEqual({ imageData: standIn, object: "person" });
    expect(decoded[0]!.value).toBe(standIn);
    expect(decoded[0]!.text!.toString("latin1")).toBe(jpeg.toString("base64"));
    expect(decoded[0]!.bytes.equals(jpeg)).toBe(true);
    const sent = await outcome(body, "imageData", "imageData");
    expect(sent).toEqual(await outcome(body, undefined, "imageData"));
    expect("frame" in sent && JSON.parse(sent.frame.body.toString()).image_url).toBe(dataUrl);
  });

  it("is refused exactly as its text is: wrong type, not an image, malformed base64, too large", async () => {
    const base64 = (bytes: Buffer) => bytes.toString("base64");
    const noise = base64(randomBytes(60_000));
    const bodies: Array<[string, string]> = [
      ["a PNG", `data:image/png;base64,${base64(png)}`],
      ["a JPEG declared as PNG", `data:image/png;base64,${base64(jpeg)}`],
      ["a WebP", `data:image/webp;base64,${base64(webp)}`],
      ["noise declared as a JPEG", `data:image/jpeg;base64,${noise}`],
      ["a text type", `data:text/plain;base64,${noise}`],
      ["an application type", `data:application/octet-stream;base64,${base64(jpeg)}`],
      ["an upper-case header", `DATA:IMAGE/JPEG;BASE64,${base64(jpeg)}`],
      ["a parameter in the header", `data:image/jpeg;name=x;base64,${base64(jpeg)}`],
      ["a stray character", `data:image/jpeg;base64,${noise.slice(0, 30_000)}*${noise.slice(30_000)}`],
      ["padding in the middle", `data:image/jpeg;base64,${noise.slice(0, 30_000)}=${noise.slice(30_001)}`],
      ["a length not a multiple of 4", `data:image/jpeg;base64,${noise.slice(1)}`],
      ["a truncated JPEG", `data:image/jpeg;base64,${base64(jpeg.subarray(0, 40_000))}`],
      ["all zeros", `data:image/jpeg;base64,${base64(Buffer.alloc(60_000))}`],
      ["over 10 MB", `data:image/png;base64,${base64(Buffer.alloc(10 * 1024 * 1024 + 10))}`],
      ["bare base64", base64(jpeg)],
    ];
    for (const [name, imageData] of bodies) {
      for (const field of ["imageData", "imageBase64"]) {
        const body = Buffer.from(JSON.stringify({ [field]: imageData, object: "x" }));
        expect(await outcome(body, field, field), `${name} as ${field}`).toEqual(await outcome(body, undefined, field));
      }
    }
  });

  it("is only the named top-level field: any other string stays a string", () => {
    const dataUrl = `data:image/jpeg;base64,${randomBytes(60_000).toString("base64")}`;
    for (const value of [{ question: dataUrl }, { nested: { imageData: dataUrl } }, [dataUrl], { imageData: [dataUrl] }]) {
      const parsed = parseJsonBytes(Buffer.from(JSON.stringify(value)), { bytesFor: "imageData" });
      expect(parsed.value).toEqual(value);
      expect(parsed.decoded.every((entry) => entry.text === undefined)).toBe(true);
    }
  });
});

describe("a frame's base64 as sent", () => {
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
            frame = await prepareForModel(aiFrame(asDataUrl ? `data:image/jpeg;base64,${text}` : text, []));
          } catch (error) {
            expect(error).toBeInstanceOf(ProblemError);
            expect((error as ProblemError).status).toBeGreaterThanOrEqual(400);
            expect((error as ProblemError).status).toBeLessThan(500);
            return;
          }
          const imageUrl = (JSON.parse(encodeJsonBody({ image_url: frame.image }).toString()) as { image_url: string }).image_url;
          const sent = imageUrl.slice(imageUrl.indexOf(",") + 1);
          expect(sent).toMatch(BASE64_ALPHABET);
          expect(Buffer.from(sent, "base64").equals(frame.bytes)).toBe(true);
          expect(JSON.parse(encodeJsonBody({ image_url: frame.image, object: "x" }).toString())).toEqual({ image_url: frame.image.dataUrl, object: "x" });
        },
      ),
      { numRuns: 150 },
    );
  });
});
