// The JavaScript header reader against sharp: the same format and size for what cameras and browsers make, and
// never a size for a file sharp cannot read (so a damaged frame still gets sharp's 422).
import fc from "fast-check";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { markerImage } from "../../tests/fakes/moondream/images";
import { readImageHeader } from "./image-header";

async function sharpHeader(bytes: Buffer): Promise<{ format: string; width: number; height: number } | null> {
  try {
    const m = await sharp(bytes, { limitInputPixels: false }).metadata();
    return { format: m.format, width: m.width, height: m.height };
  } catch {
    return null;
  }
}

const pixels = (width: number, height: number, channels: 1 | 2 | 3 | 4) =>
  sharp(Buffer.from(Array.from({ length: width * height * channels }, (_, i) => (i * 37) % 256)), { raw: { width, height, channels } });

async function samples(): Promise<Buffer[]> {
  return [
    await markerImage({ width: 1920, height: 1080 }),
    await markerImage({ width: 640, height: 480, format: "png" }),
    await pixels(33, 17, 3).jpeg({ progressive: true }).toBuffer(),
    await pixels(33, 17, 3).jpeg({ chromaSubsampling: "4:4:4", quality: 100 }).toBuffer(),
    await pixels(40, 30, 3).jpeg({ optimiseCoding: false, mozjpeg: true }).toBuffer(),
    await pixels(20, 10, 1).jpeg().toBuffer(),
    await pixels(33, 17, 3).withMetadata({ orientation: 6 }).jpeg().toBuffer(),
    await pixels(21, 13, 1).png().toBuffer(),
    await pixels(21, 13, 2).png().toBuffer(),
    await pixels(21, 13, 4).png({ progressive: true }).toBuffer(),
    await pixels(21, 13, 3).png({ palette: true }).toBuffer(),
    await pixels(21, 13, 3).toColourspace("rgb16").png().toBuffer(),
  ];
}

describe("readImageHeader", () => {
  it("reads what sharp reads from JPEGs of every common kind (and leaves PNGs to sharp)", async () => {
    for (const bytes of await samples()) {
      const expected = await sharpHeader(bytes);
      expect(expected).not.toBeNull();
      expect(readImageHeader(bytes)).toEqual(expected!.format === "jpeg" ? expected : null);
    }
  });

  it("answers null for other formats, nothing, and truncated headers", async () => {
    expect(readImageHeader(Buffer.alloc(0))).toBeNull();
    expect(readImageHeader(await pixels(8, 8, 3).webp().toBuffer())).toBeNull();
    expect(readImageHeader(await pixels(8, 8, 3).gif().toBuffer())).toBeNull();
    expect(readImageHeader(await markerImage({ width: 64, height: 48, format: "png" }))).toBeNull(); // sharp reads PNGs
    const jpeg = await markerImage({ width: 64, height: 48 });
    const scan = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    for (const cut of [2, 3, 20, 100, scan, scan + 5]) expect(readImageHeader(jpeg.subarray(0, cut))).toBeNull();
    expect(readImageHeader(jpeg.subarray(0, scan + 14))).toEqual({ format: "jpeg", width: 64, height: 48 });
  });

  it("never gives a size for a damaged header that sharp refuses, nor a size other than sharp's", async () => {
    const originals = await samples();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: originals.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (which, edits, truncate) => {
          const bytes = Buffer.from(originals[which]!);
          // Damage the header region, where the reader looks (a frame's tables are in the first ~700 bytes).
          for (const [at, value] of edits) bytes[at % Math.min(bytes.length, 800)] = value;
          const input = truncate ? bytes.subarray(0, 700) : bytes;
          const ours = readImageHeader(input);
          if (ours === null) return;
          expect(await sharpHeader(input)).toEqual(ours);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
    );
  });
});
