// A frame sent inline as a data URL in a provider call's JSON body, and the encoder of such bodies.
//
// A 1080p frame is ~320 KB of base64. Put through JSON.stringify (which scans every character for escapes and
// copies it) and TextEncoder (which copies it again), it cost about 1 ms of CPU per call, the largest single
// item of the call path in a profile (bench/vision.ts). Canonical base64 needs no JSON escaping and is ASCII, so
// its characters are its bytes: the body is assembled by copying them once into the output buffer.

/** Characters of canonical base64 (standard or URL-safe alphabet, with padding): none needs escaping in JSON. */
export const BASE64_ALPHABET = /^[A-Za-z0-9+/_-]*={0,2}$/;

const MIME_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

export class InlineImage {
  /**
   * `base64` must be canonical base64 text (only BASE64_ALPHABET characters). Checking that again here would
   * cost as much as the escaping this class avoids, so the one maker of frames (frames.ts) establishes it: it
   * either proves it by decoding (a decoded length short of what the text length promises means other
   * characters were in there) or produces the text itself with Buffer#toString("base64"). As bytes, it is the
   * text's ASCII bytes (a request body's, server/http/json-body.ts), copied into the provider's body as they are.
   */
  constructor(
    readonly mimeType: string,
    readonly base64: string | Buffer,
  ) {
    if (!MIME_TYPE.test(mimeType)) throw new TypeError(`not a MIME type: ${mimeType}`);
  }

  get dataUrl(): string {
    return `data:${this.mimeType};base64,${typeof this.base64 === "string" ? this.base64 : this.base64.toString("latin1")}`;
  }

  /** Anything that still stringifies a body with an InlineImage in it gets the data URL. */
  toJSON(): string {
    return this.dataUrl;
  }
}

/**
 * A JSON request body as bytes. With an InlineImage as `image_url`, that field is written first and its base64
 * copied in as it is; every other field goes through JSON.stringify as usual (they are small).
 */
export function encodeJsonBody(body: Record<string, unknown>): Buffer<ArrayBuffer> {
  const { image_url: image, ...rest } = body;
  if (!(image instanceof InlineImage)) return Buffer.from(JSON.stringify(body), "utf8");
  const head = `{"image_url":"data:${image.mimeType};base64,`;
  const others = JSON.stringify(rest);
  const tail = others === "{}" ? `"}` : `",${others.slice(1)}`;
  const tailBytes = Buffer.byteLength(tail, "utf8");
  const out = Buffer.allocUnsafe(head.length + image.base64.length + tailBytes);
  let at = out.write(head, 0, "latin1");
  at += typeof image.base64 === "string" ? out.write(image.base64, at, "latin1") : image.base64.copy(out, at);
  out.write(tail, at, "utf8");
  return out;
}
