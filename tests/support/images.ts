// Real images for tests, made with sharp: JPEG/PNG data URLs of a given size and colour.
import sharp from "sharp";

export async function jpegBytes(width = 64, height = 48, color = { r: 200, g: 60, b: 30 }, quality = 85): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg({ quality })
    .toBuffer();
}

/** A photo-like 1080p JPEG (noise, so it compresses like a real frame rather than a flat colour). */
export async function noisyJpegBytes(width = 1920, height = 1080): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 42;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = (i % 3 === 0 ? (i / 3) % width : seed) & 0xff;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export async function pngBytes(width = 32, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 128, b: 255, alpha: 1 } } })
    .png()
    .toBuffer();
}

export function dataUrl(bytes: Buffer | string, mime = "image/jpeg"): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`;
}

export async function jpegDataUrl(width?: number, height?: number): Promise<string> {
  return dataUrl(await jpegBytes(width, height));
}
