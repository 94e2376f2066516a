import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { intakeImage } from "./intake";

/** A 64×32 PNG: the left half opaque red, the right half fully transparent. */
async function halfTransparentPng(): Promise<Buffer> {
  const rgba = Buffer.alloc(64 * 32 * 4);
  for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) rgba.set([255, 0, 0, 255], (y * 64 + x) * 4);
  return sharp(rgba, { raw: { width: 64, height: 32, channels: 4 } })
    .png()
    .toBuffer();
}

describe("intakeImage", () => {
  it("keeps a cut-out's original as PNG, and shows its transparent part as a light checkerboard in the JPEG thumbnail", async () => {
    const png = await halfTransparentPng();
    const image = await intakeImage(png);
    expect(image.mimeType).toBe("image/png");
    expect(image.original).toBe(png);
    const { data, info } = await sharp(image.thumbnail).raw().toBuffer({ resolveWithObject: true });
    expect(info.format).toBe("raw");
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    // The opaque half keeps its colour.
    const [r, g, b] = pixel(4, 4);
    expect(r).toBeGreaterThan(230);
    expect(Math.max(g!, b!)).toBeLessThan(30);
    // The transparent half is light grey or white squares (never black), and both shades are there.
    const shades = new Set<number>();
    for (let y = 2; y < 30; y += 8) {
      for (let x = 36; x < 62; x += 8) {
        const [pr, pg, pb] = pixel(x, y);
        expect(Math.min(pr!, pg!, pb!)).toBeGreaterThan(190);
        shades.add(pr! > 230 ? 255 : 204);
      }
    }
    expect(shades).toEqual(new Set([255, 204]));
  });

  it("makes an opaque photo's thumbnail from its pixels alone", async () => {
    const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .jpeg()
      .toBuffer();
    const { data } = await sharp((await intakeImage(jpeg)).thumbnail)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(Math.max(...data)).toBeLessThan(20);
  });
});
