// The pixels of a photo edit, with sharp: the outline (a checked path, ./path.ts, normalised to its bbox) made an
// alpha mask at the photo's full resolution, and the cut-out, background blur and smart crop made with it.
import sharp from "sharp";
import type { CropAspect } from "#app/schemas/photo-edits";
import type { Box } from "#app/schemas/vision";

/** A photo decoded upright (EXIF orientation applied), as RGB without alpha. */
export interface Decoded {
  data: Buffer;
  width: number;
  height: number;
}

/** Full-resolution colour (no chroma subsampling): an edit should not soften the subject's colour detail. */
const JPEG = { quality: 92, chromaSubsampling: "4:4:4" } as const;
/** The blur runs on a downscaled copy past this sigma (a full-resolution blur of sigma 100 takes seconds). */
const MAX_DIRECT_SIGMA = 8;
/** Room left around the subject in a smart crop, as a fraction of its box on each side. */
const CROP_MARGIN = 0.08;

export async function decodeUpright(bytes: Buffer): Promise<Decoded> {
  const { data, info } = await sharp(bytes, { limitInputPixels: 40_000_000 }).rotate().flatten({ background: "#ffffff" }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The alpha mask (one byte a pixel, 255 inside) of `path` drawn in `bbox` over a width × height picture: the SVG
 * the Moondream docs describe (viewBox 0 0 1 1, no aspect kept, placed at the bbox) as one transform, rasterised
 * by librsvg, antialiased at the edge.
 */
export async function renderMask(path: string, bbox: Box, width: number, height: number): Promise<Buffer> {
  const x = bbox.x_min * width;
  const y = bbox.y_min * height;
  const w = (bbox.x_max - bbox.x_min) * width;
  const h = (bbox.y_max - bbox.y_min) * height;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="#000"/>` +
    `<path transform="translate(${x} ${y}) scale(${w} ${h})" d="${path}" fill="#fff"/></svg>`;
  return sharp(Buffer.from(svg), { limitInputPixels: false }).extractChannel("red").raw().toBuffer();
}

const rgbaOf = (photo: Decoded, mask: Buffer) =>
  sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } }).joinChannel(mask, { raw: { width: photo.width, height: photo.height, channels: 1 } });

/** The subject alone: a PNG whose alpha is the mask. */
export async function cutout(photo: Decoded, mask: Buffer): Promise<Buffer> {
  return rgbaOf(photo, mask).png().toBuffer();
}

/** How strongly strength 1–100 blurs: 100 is a Gaussian of sigma 1/30 of the photo's longer side. */
function blurSigma(strength: number, width: number, height: number): number {
  return Math.max(0.5, (strength / 100) * (Math.max(width, height) / 30));
}

/** The subject as it was over a blurred copy of the photo (a JPEG); the mask's soft edge blends the two. */
export async function blurBackground(photo: Decoded, mask: Buffer, strength: number): Promise<Buffer> {
  const { width, height } = photo;
  const sigma = blurSigma(strength, width, height);
  const scale = Math.max(1, sigma / MAX_DIRECT_SIGMA);
  const small = await sharp(photo.data, { raw: { width, height, channels: 3 } })
    .resize(Math.max(1, Math.round(width / scale)), Math.max(1, Math.round(height / scale)), { fit: "fill" })
    .blur(Math.max(0.3, sigma / scale))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const blurred = await sharp(small.data, { raw: { width: small.info.width, height: small.info.height, channels: 3 } })
    .resize(width, height, { fit: "fill" })
    .raw()
    .toBuffer();
  const subject = await rgbaOf(photo, mask).raw().toBuffer();
  return sharp(blurred, { raw: { width, height, channels: 3 } })
    .composite([{ input: subject, raw: { width, height, channels: 4 } }])
    .jpeg(JPEG)
    .toBuffer();
}

const RATIOS: Record<CropAspect, number> = { "16:9": 16 / 9, "1:1": 1, "9:16": 9 / 16, "4:5": 4 / 5 };

/**
 * The crop of the aspect around the subject's box (with a margin), centred on it and kept inside the photo; when
 * the photo is too small for that, the largest crop of the aspect it holds, centred on the subject as far as it can.
 */
function cropRect(bbox: Box, aspect: CropAspect, width: number, height: number): { left: number; top: number; width: number; height: number } {
  const ratio = RATIOS[aspect];
  const boxW = (bbox.x_max - bbox.x_min) * width * (1 + 2 * CROP_MARGIN);
  const boxH = (bbox.y_max - bbox.y_min) * height * (1 + 2 * CROP_MARGIN);
  const wanted = Math.max(boxH, boxW / ratio);
  const h = wanted * Math.min(1, width / (wanted * ratio), height / wanted);
  // Whole pixels: the width rounded, the height following it (within a pixel of the aspect), both inside the photo.
  const cropW = Math.min(width, Math.max(1, Math.round(h * ratio)));
  const cropH = Math.min(height, Math.max(1, Math.round(cropW / ratio)));
  const cx = ((bbox.x_min + bbox.x_max) / 2) * width;
  const cy = ((bbox.y_min + bbox.y_max) / 2) * height;
  const left = Math.round(Math.min(width - cropW, Math.max(0, cx - cropW / 2)));
  const top = Math.round(Math.min(height - cropH, Math.max(0, cy - cropH / 2)));
  return { left, top, width: cropW, height: cropH };
}

export async function crop(photo: Decoded, bbox: Box, aspect: CropAspect): Promise<Buffer> {
  const rect = cropRect(bbox, aspect, photo.width, photo.height);
  return sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } })
    .extract(rect)
    .jpeg(JPEG)
    .toBuffer();
}
