// Image intake, the one door image bytes come in through: trust only what sharp finds in the bytes (not the
// declared MIME type), enforce size limits, and make the 320 px thumbnail. Data URLs are decoded before this, at
// the HTTP edge (server/http/frame-input.ts).
import { createHash } from "node:crypto";
import sharp, { type Metadata, type Sharp } from "sharp";
import { ProblemError } from "../errors";

export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;
export const MAX_IMAGE_PIXELS = 40_000_000;
export const THUMBNAIL_SIZE = 320;

const FORMATS = { jpeg: { mime: "image/jpeg", ext: "jpg" }, png: { mime: "image/png", ext: "png" }, webp: { mime: "image/webp", ext: "webp" } } as const;
type Format = keyof typeof FORMATS;

export interface IntakeImage {
  original: Buffer;
  thumbnail: Buffer;
  mimeType: string;
  ext: string;
  width: number;
  height: number;
  bytes: number;
  etag: string;
}

export interface IntakeLimits {
  maxBytes?: number;
  maxPixels?: number;
}

export function tooLarge(maxBytes: number): ProblemError {
  return new ProblemError(413, `The image is larger than ${Math.round(maxBytes / (1024 * 1024))} MB`, { errors: { imageData: ["too large"] } });
}

/** Validates and normalises an image and makes its thumbnail. Throws 413/422 problems for bad input. */
export async function intakeImage(bytes: Buffer, limits: IntakeLimits = {}): Promise<IntakeImage> {
  const maxBytes = limits.maxBytes ?? MAX_IMAGE_BYTES;
  const maxPixels = limits.maxPixels ?? MAX_IMAGE_PIXELS;
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  if (bytes.length === 0) throw new ProblemError(422, "The image is empty", { errors: { imageData: ["empty"] } });

  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ProblemError(422, "The file is not a readable JPEG, PNG or WebP image", { errors: { imageData: ["unreadable image"] } });
  }
  const format = metadata.format as string;
  if (!(format in FORMATS)) {
    throw new ProblemError(422, "The file is not a JPEG, PNG or WebP image", { errors: { imageData: [`${format || "unknown"} images are not accepted`] } });
  }
  const width = metadata.autoOrient?.width ?? metadata.width ?? 0;
  const height = metadata.autoOrient?.height ?? metadata.height ?? 0;
  if (!width || !height) throw new ProblemError(422, "The image has no dimensions", { errors: { imageData: ["no dimensions"] } });
  if (width * height > maxPixels) {
    throw new ProblemError(413, `The image is larger than ${maxPixels / 1_000_000} megapixels (${width}×${height})`, { errors: { imageData: ["too many pixels"] } });
  }

  let thumbnail: Buffer;
  try {
    const resized = sharp(bytes, { limitInputPixels: maxPixels, failOn: "truncated" }).rotate().resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "inside", withoutEnlargement: true });
    thumbnail = metadata.hasAlpha ? await overCheckerboard(resized) : await resized.jpeg({ quality: 80, mozjpeg: false }).toBuffer();
  } catch {
    throw new ProblemError(422, "The image is damaged or incomplete", { errors: { imageData: ["damaged image"] } });
  }
  const { mime, ext } = FORMATS[format as Format];
  return {
    original: bytes,
    thumbnail,
    mimeType: mime,
    ext,
    width,
    height,
    bytes: bytes.length,
    etag: createHash("sha256").update(bytes).digest("base64url").slice(0, 27),
  };
}

/**
 * A thumbnail of a picture with transparency (a cut-out) on the grey checkerboard image editors show for "transparent":
 * thumbnails are JPEG, which has no alpha, and flattening onto black would make a cut-out look like a dark photo.
 */
async function overCheckerboard(resized: Sharp): Promise<Buffer> {
  const { data, info } = await resized.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const square = 8;
  const board = Buffer.alloc(info.width * info.height * 3);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) board.fill((Math.floor(x / square) + Math.floor(y / square)) % 2 ? 204 : 255, (y * info.width + x) * 3, (y * info.width + x) * 3 + 3);
  }
  return sharp(board, { raw: { width: info.width, height: info.height, channels: 3 } })
    .composite([{ input: data, raw: { width: info.width, height: info.height, channels: 4 } }])
    .jpeg({ quality: 80, mozjpeg: false })
    .toBuffer();
}
