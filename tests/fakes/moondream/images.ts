// Test frames with markers for the fake Moondream: a soft photo-like background (gradient and a little
// noise, so it compresses like a camera frame) with solid red, green and blue rectangles where asked.
import sharp from "sharp";
import type { MarkerColor } from "./markers";

export interface MarkerSpec {
  color: MarkerColor;
  /** Fractions of the frame. */
  x: number;
  y: number;
  w: number;
  h: number;
}

const RGB: Record<MarkerColor, [number, number, number]> = { red: [230, 20, 20], green: [20, 210, 40], blue: [20, 40, 230] };

export async function markerImage(
  options: {
    width?: number;
    height?: number;
    markers?: MarkerSpec[];
    format?: "jpeg" | "png";
    quality?: number;
    /** pixel noise amplitude: more makes bigger files */ noise?: number;
  } = {},
): Promise<Buffer> {
  const { width = 320, height = 240, markers = [], format = "jpeg", quality = 80, noise: amplitude = 9 } = options;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed >> 16) % amplitude;
      const i = (y * width + x) * 3;
      // Greyish, never close to a marker colour.
      pixels[i] = 90 + Math.round((60 * x) / width) + noise;
      pixels[i + 1] = 100 + Math.round((50 * y) / height) + noise;
      pixels[i + 2] = 110 + noise;
    }
  }
  for (const marker of markers) {
    const [r, g, b] = RGB[marker.color];
    const x0 = Math.round(marker.x * width),
      y0 = Math.round(marker.y * height);
    const x1 = Math.round((marker.x + marker.w) * width),
      y1 = Math.round((marker.y + marker.h) * height);
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) pixels.set([r, g, b], (y * width + x) * 3);
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === "png" ? image.png().toBuffer() : image.jpeg({ quality }).toBuffer();
}

export function toDataUrl(bytes: Buffer, mime = "image/jpeg"): string {
  return `data:${mime};base64,${bytes.toString("base64")}`;
}

/** n markers of one colour in a row across the middle of the frame. */
export function row(color: MarkerColor, n: number, y = 0.4): MarkerSpec[] {
  return Array.from({ length: n }, (_, i) => ({ color, x: 0.05 + i * 0.09, y, w: 0.06, h: 0.1 }));
}
