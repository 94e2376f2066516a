// The HTTP edge of frames: a request's base64 image (a data URL, or bare base64 for the AI routes) decoded once
// into a Frame of bytes (server/images/frame.ts), and an answer's image made a data URL. Services never see the
// text. The JSON body reader has usually decoded the big string already (./json-body.ts, `decoded`), so an AI
// frame costs no second decode here (docs/decisions/0011-frames-as-bytes.md).
import { MAX_FRAME_BYTES } from "#app/schemas/vision";
import { ProblemError } from "../errors";
import { uploadedFrame, type Frame } from "../images/frame";
import { MAX_IMAGE_BYTES, tooLarge } from "../images/intake";
import type { DecodedBase64 } from "./json-body";

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)(?:;[\w-]+=[\w.-]+)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL_HEADER = /^data:image\/[\w.+-]+;base64,/i;
const DECLARED_TYPE = /^data:([\w.+-]+\/[\w.+-]+)/i;

/** A photo's or picture's data URL as bytes (JPEG, PNG or WebP declared; what the bytes are, intake decides). */
export function imageFrame(dataUrl: string, maxBytes?: number): Frame {
  const bytes = decodeImageDataUrl(dataUrl, maxBytes);
  return uploadedFrame(bytes, DECLARED_TYPE.exec(dataUrl)![1]!.toLowerCase());
}

/**
 * An AI route's frame (a JPEG or PNG data URL, or bare base64, of at most 10 MB) as bytes. What the bytes are and
 * how big the picture is, the vision service checks (server/vision/frames.ts). The hot path for what browsers send
 * (canonical, padded base64) is the body reader's decode, reused; anything else goes through the strict decoder.
 */
export function aiFrame(given: string, decodedByReader: readonly DecodedBase64[]): Frame {
  const { input, decoded } = withText(
    given,
    decodedByReader.find((entry) => entry.value === given),
  );
  const dataUrl = input.startsWith("data:") ? input : `data:image/jpeg;base64,${input}`;
  const clean = decoded && decoded.value === input ? fromDecoded(dataUrl, input, decoded) : decodeCleanBase64(dataUrl);
  const bytes = clean ?? decodeImageDataUrl(dataUrl, MAX_FRAME_BYTES);
  if (bytes.length === 0) throw new ProblemError(422, "The image is empty", { errors: { imageData: ["empty"] } });
  if (bytes.length > MAX_FRAME_BYTES) throw new ProblemError(413, "The image is larger than 10 MB", { errors: { imageData: ["too large"] } });
  // The body's own base64 text (kept as bytes by the reader and proven by its decode) goes on to the provider as it is.
  const arrivedAs = clean && decoded?.text && clean === decoded.bytes ? decoded.text : undefined;
  return uploadedFrame(bytes, DECLARED_TYPE.exec(dataUrl)?.[1]?.toLowerCase() ?? "image/jpeg", arrivedAs);
}

/** Bytes as a data URL, for an answer that carries an image inline (a photo read by the gallery). */
export function dataUrlOf(bytes: Buffer, type: string): string {
  return `data:${type};base64,${bytes.toString("base64")}`;
}

/** Runs a handler whose frame came in another field than imageData: its frame problems name that field. */
export async function withFrameField<T>(field: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProblemError && field !== "imageData" && error.init.errors?.imageData) {
      throw new ProblemError(error.status, error.message, { ...error.init, errors: { [field]: error.init.errors.imageData } });
    }
    throw error;
  }
}

/** Decodes a data URL into bytes, refusing anything that is not plausibly an image before decoding it. */
function decodeImageDataUrl(dataUrl: string, maxBytes = MAX_IMAGE_BYTES): Buffer {
  const header = DATA_URL.exec(dataUrl);
  if (!header) throw new ProblemError(422, "Image data must be a base64 data URL (data:image/jpeg;base64,...)", { errors: { imageData: ["not a base64 data URL"] } });
  if (!/^image\/(jpeg|jpg|png|webp)$/i.test(header[1]!)) {
    throw new ProblemError(422, "Only JPEG, PNG and WebP images are accepted", { errors: { imageData: ["unsupported image type"] } });
  }
  const payload = dataUrl.slice(header[0].length).replace(/\s+/g, "");
  const approxBytes = Math.floor((payload.length * 3) / 4);
  if (approxBytes > maxBytes) throw tooLarge(maxBytes);
  if (!BASE64.test(payload)) throw new ProblemError(422, "The image data is not valid base64", { errors: { imageData: ["invalid base64"] } });
  return Buffer.from(payload, "base64");
}

/**
 * The hot path for canonical, padded base64 with nothing else in it: one decode. Node's decoder skips characters
 * that are not base64, so a decoded length short of what the text's length promises means something else was in
 * there, and the strict decoder above takes over (whitespace, unpadded text, or an error for the person).
 */
function decodeCleanBase64(dataUrl: string): Buffer | null {
  const header = DATA_URL_HEADER.exec(dataUrl);
  if (!header) return null;
  const payload = dataUrl.slice(header[0].length);
  if (payload.length % 4 !== 0 || (payload.length / 4) * 3 > MAX_FRAME_BYTES + 3) return null;
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  const bytes = Buffer.from(payload, "base64");
  return bytes.length === (payload.length / 4) * 3 - padding ? bytes : null;
}

/**
 * A frame the body reader left as bytes (`decoded.text`, the value a stand-in) stays so: an image data URL header
 * and a size within the limit, checked as fromDecoded checks them. Anything else is given its real text back, so
 * every refusal and its message is exactly what the text gets.
 */
function withText(input: string, decoded: DecodedBase64 | undefined): { input: string; decoded: DecodedBase64 | undefined } {
  if (!decoded?.text || decoded.value !== input) return { input, decoded };
  // "data:" as written: an upper-case "DATA:" is no data URL here (it is taken for bare base64).
  const header = input.startsWith("data:") ? DATA_URL_HEADER.exec(input.slice(0, 200)) : null;
  if (header && header[0].length === decoded.payloadStart && (decoded.text.length / 4) * 3 <= MAX_FRAME_BYTES + 3) return { input, decoded };
  const text = `${input.slice(0, decoded.payloadStart)}${decoded.text.toString("latin1")}`;
  return { input: text, decoded: { value: text, payloadStart: decoded.payloadStart, bytes: decoded.bytes } };
}

/** decodeCleanBase64's answer for a string the JSON reader already decoded (canonical base64), without decoding it again. */
function fromDecoded(dataUrl: string, input: string, decoded: DecodedBase64): Buffer | null {
  if (decoded.text) return decoded.bytes; // checked by withText
  if (input === dataUrl) {
    const header = DATA_URL_HEADER.exec(input.slice(0, 200));
    if (!header) return null;
    if (header[0].length !== decoded.payloadStart) return decodeCleanBase64(dataUrl);
  } else if (decoded.payloadStart !== 0) {
    return decodeCleanBase64(dataUrl);
  }
  if (((input.length - decoded.payloadStart) / 4) * 3 > MAX_FRAME_BYTES + 3) return null;
  return decoded.bytes;
}
