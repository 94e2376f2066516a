// Writes a Y4M video file (what Chromium's --use-file-for-fake-video-capture plays) from a picture.
import { writeFileSync } from "node:fs";
import sharp from "sharp";

/** Converts RGB to I420 (BT.601 limited range) and writes `frames` identical frames. */
export async function writeY4m(path: string, image: Buffer, width: number, height: number, frames = 1): Promise<void> {
  const { data } = await sharp(image).resize(width, height, { fit: "fill" }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = (row * width + col) * 3;
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      y[row * width + col] = Math.round(16 + 0.257 * r + 0.504 * g + 0.098 * b);
      if (row % 2 === 0 && col % 2 === 0) {
        const c = (row / 2) * (width / 2) + col / 2;
        u[c] = Math.round(128 - 0.148 * r - 0.291 * g + 0.439 * b);
        v[c] = Math.round(128 + 0.439 * r - 0.368 * g - 0.071 * b);
      }
    }
  }
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), y, u, v]);
  writeFileSync(path, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}

/** The test camera's picture: blue on the left half, yellow on the right, a red square in the middle. */
export async function testCameraPicture(width = 640, height = 480): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width / 2}" height="${height}" fill="#0000ff"/>
    <rect x="${width / 2}" width="${width / 2}" height="${height}" fill="#ffff00"/>
    <rect x="${width / 2 - 40}" y="${height / 2 - 40}" width="80" height="80" fill="#ff0000"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
