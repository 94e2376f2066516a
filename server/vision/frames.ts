// Frames for the model: a JPEG or PNG data URL (or raw base64) of at most 10 MB, checked by what sharp
// finds in the bytes, and downscaled when it has more pixels than the model can use.
import sharp, { type Metadata, type OutputInfo } from "sharp";
import { MAX_FRAME_BYTES } from "#app/schemas/vision";
import { ProblemError } from "../errors";
import { decodeImageDataUrl, type DecodedBase64 } from "../images/intake";
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

export interface Frame {
  /** What is sent as image_url: canonical base64 (often the request's own bytes), copied into the provider's body as it is. */
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
 * Validates a frame and returns what to send. A frame small enough goes on as it came (no re-encode), so the
 * only per-frame work on the hot path is a base64 decode and a header read (in JavaScript for JPEGs).
 */
export async function prepareFrame(given: string, field = "imageData", givenDecoded?: DecodedBase64): Promise<Frame> {
  const { input, decoded } = withText(given, givenDecoded);
  const dataUrl = input.startsWith("data:") ? input : `data:image/jpeg;base64,${input}`;
  try {
    const clean = decoded && decoded.value === input ? fromDecoded(dataUrl, input, decoded) : decodeCleanBase64(dataUrl);
    const bytes = clean?.bytes ?? decodeImageDataUrl(dataUrl, MAX_FRAME_BYTES);
    if (bytes.length === 0) throw new ProblemError(422, "The image is empty", { errors: { imageData: ["empty"] } });
    if (bytes.length > MAX_FRAME_BYTES) throw new ProblemError(413, "The image is larger than 10 MB", { errors: { imageData: ["too large"] } });
    return await fitForModel(bytes, clean?.payload);
  } catch (error) {
    if (error instanceof ProblemError && field !== "imageData" && error.init.errors?.imageData) {
      throw new ProblemError(error.status, error.message, { ...error.init, errors: { [field]: error.init.errors.imageData } });
    }
    throw error;
  }
}

const DATA_URL_HEADER = /^data:image\/[\w.+-]+;base64,/i;

/**
 * The hot path for what browsers send (canonical, padded base64 with nothing else in it): one decode, and
 * the payload string is kept to be sent on as it is. Node's decoder skips characters that are not base64,
 * so a decoded length short of what the text's length promises means something else was in there, and the
 * strict decoder of the intake module takes over (whitespace, unpadded text, or an error for the person).
 */
function decodeCleanBase64(dataUrl: string): { bytes: Buffer; payload: string } | null {
  const header = DATA_URL_HEADER.exec(dataUrl);
  if (!header) return null;
  const payload = dataUrl.slice(header[0].length);
  if (payload.length % 4 !== 0 || (payload.length / 4) * 3 > MAX_FRAME_BYTES + 3) return null;
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  const bytes = Buffer.from(payload, "base64");
  return bytes.length === (payload.length / 4) * 3 - padding ? { bytes, payload } : null;
}

/**
 * A frame the body reader left as bytes (`decoded.text`, the value a stand-in) stays so on the hot path: an image
 * data URL header and a size within the limit, checked as fromDecoded checks them. Anything else is given its real
 * text back, so every refusal and its message is exactly what the text gets.
 */
function withText(input: string, decoded: DecodedBase64 | undefined): { input: string; decoded: DecodedBase64 | undefined } {
  if (!decoded?.text || decoded.value !== input) return { input, decoded };
  // "data:" as written: an upper-case "DATA:" is no data URL to prepareFrame (it is taken for bare base64).
  const header = input.startsWith("data:") ? DATA_URL_HEADER.exec(input.slice(0, 200)) : null;
  if (header && header[0].length === decoded.payloadStart && (decoded.text.length / 4) * 3 <= MAX_FRAME_BYTES + 3) return { input, decoded };
  const text = `${input.slice(0, decoded.payloadStart)}${decoded.text.toString("latin1")}`;
  return { input: text, decoded: { value: text, payloadStart: decoded.payloadStart, bytes: decoded.bytes } };
}

/**
 * decodeCleanBase64's answer for a string the JSON reader already decoded (json-body.ts: canonical base64,
 * behind a data URL header of any type), without decoding it again.
 */
function fromDecoded(dataUrl: string, input: string, decoded: DecodedBase64): { bytes: Buffer; payload: string | Buffer } | null {
  if (decoded.text) return { bytes: decoded.bytes, payload: decoded.text }; // checked by withText
  if (input === dataUrl) {
    const header = DATA_URL_HEADER.exec(input.slice(0, 200));
    if (!header) return null;
    if (header[0].length !== decoded.payloadStart) return decodeCleanBase64(dataUrl);
  } else if (decoded.payloadStart !== 0) {
    return decodeCleanBase64(dataUrl);
  }
  if (((input.length - decoded.payloadStart) / 4) * 3 > MAX_FRAME_BYTES + 3) return null;
  return { bytes: decoded.bytes, payload: decoded.payloadStart ? input.slice(decoded.payloadStart) : input };
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

async function fitForModel(bytes: Buffer, payload?: string | Buffer): Promise<Frame> {
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
    return { image: new InlineImage(mimeType, payload ?? bytes.toString("base64")), bytes, mimeType, width, height, receivedBytes: bytes.length, downscaled: false };
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
    image: new InlineImage("image/jpeg", resized.data.toString("base64")),
    bytes: resized.data,
    mimeType: "image/jpeg",
    width: resized.info.width,
    height: resized.info.height,
    receivedBytes: bytes.length,
    downscaled: true,
  };
}
