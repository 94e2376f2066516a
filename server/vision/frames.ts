// A Frame (server/images/frame.ts) made ready for the model: a JPEG or PNG of at most 10 MB, checked by what is
// in the bytes, and downscaled when it has more pixels than the model can use.
import sharp, { type Metadata, type OutputInfo } from "sharp";
import { ProblemError } from "../errors";
import type { Frame } from "../images/frame";
import { readImageHeader } from "./image-header";
import { InlineImage } from "./inline-image";

/** Frames above this are downscaled: the model tiles at about 1.9 MP, so more pixels only cost upload time. */
export const MAX_FRAME_PIXELS = 2_200_000;
/** What a downscaled frame is resized to: 1080p's pixel count, in the frame's own aspect ratio. */
export const TARGET_FRAME_PIXELS = 1920 * 1080;
/** A 10 MB image as base64 plus the request's other fields. */
export const FRAME_BODY_LIMIT = 14 * 1024 * 1024;
/** How an AI route reads its body (server/http/operation.ts): the frame's size limit, and its field kept as bytes. */
export const FRAME_BODY = { bodyLimit: FRAME_BODY_LIMIT, frameField: "imageData" } as const;
/** A decompression bomb guard: no camera frame has more. */
const MAX_INPUT_PIXELS = 40_000_000;

/** A frame as the model gets it: checked, downscaled when it has more pixels than the model uses. */
export interface ModelFrame {
  /** What is sent as image_url: the bytes, encoded to base64 only as the provider's body is written. */
  image: InlineImage;
  bytes: Buffer;
  mimeType: "image/jpeg" | "image/png";
  width: number;
  height: number;
  /** The bytes that came in, to report what downscaling saved. */
  receivedBytes: number;
  downscaled: boolean;
}

/**
 * Checks a frame and returns what to send. A frame small enough goes on as it came (no re-encode), so the only
 * per-frame work on the hot path is a header read (in JavaScript for JPEGs); the base64 is written into the
 * provider's body at the wire edge.
 */
export async function prepareForModel(frame: Frame): Promise<ModelFrame> {
  return fitForModel(frame.bytes, frame.arrivedAs);
}

/** Format and size: a camera's or browser's JPEG from its header in JavaScript, anything else through sharp. */
async function readHeader(bytes: Buffer): Promise<{ format: string | undefined; width: number; height: number }> {
  const quick = readImageHeader(bytes);
  if (quick) return quick;
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ProblemError(422, "The image is not a readable JPEG or PNG", { errors: { imageData: ["unreadable image"] } });
  }
  return { format: metadata.format, width: metadata.width ?? 0, height: metadata.height ?? 0 };
}

async function fitForModel(bytes: Buffer, arrivedAs: Buffer | undefined): Promise<ModelFrame> {
  const { format, width, height } = await readHeader(bytes);
  if (format !== "jpeg" && format !== "png") {
    throw new ProblemError(422, "Send the frame as a JPEG or PNG image", { errors: { imageData: [`${format ?? "unknown"} images are not accepted`] } });
  }
  if (!width || !height) throw new ProblemError(422, "The image has no dimensions", { errors: { imageData: ["no dimensions"] } });
  if (width * height > MAX_INPUT_PIXELS) {
    throw new ProblemError(413, `The image has more than ${MAX_INPUT_PIXELS / 1_000_000} megapixels (${width}×${height})`, { errors: { imageData: ["too many pixels"] } });
  }
  const mimeType = format === "jpeg" ? "image/jpeg" : "image/png";
  if (width * height <= MAX_FRAME_PIXELS) {
    return { image: new InlineImage(mimeType, bytes, arrivedAs), bytes, mimeType, width, height, receivedBytes: bytes.length, downscaled: false };
  }
  const scale = Math.sqrt(TARGET_FRAME_PIXELS / (width * height));
  let resized: { data: Buffer; info: OutputInfo };
  try {
    resized = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "truncated" })
      .rotate()
      .resize(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), { fit: "fill" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new ProblemError(422, "The image is damaged or incomplete", { errors: { imageData: ["damaged image"] } });
  }
  return {
    image: new InlineImage("image/jpeg", resized.data),
    bytes: resized.data,
    mimeType: "image/jpeg",
    width: resized.info.width,
    height: resized.info.height,
    receivedBytes: bytes.length,
    downscaled: true,
  };
}
