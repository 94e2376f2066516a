// A frame sent inline as a data URL in a provider call's JSON body, and the encoder of such bodies: the Moondream
// wire edge, the one place a frame's bytes become base64 again (docs/decisions/0011-frames-as-bytes.md).
//
// A 1080p frame is ~320 KB of base64. Put through JSON.stringify (which scans every character for escapes and
// copies it) and TextEncoder (which copies it again), it cost about 1 ms of CPU per call, the largest single
// item of the call path in a profile (bench/vision.ts). Base64 needs no JSON escaping and is ASCII, so its
// characters are its bytes: the body is assembled by encoding the frame straight into the output buffer.

/** Characters of canonical base64 (standard or URL-safe alphabet, with padding): none needs escaping in JSON. */
export const BASE64_ALPHABET = /^[A-Za-z0-9+/_-]*={0,2}$/;

const MIME_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

/** Bytes encoded per slice (a multiple of 3, so each slice's base64 joins the next's): small, short-lived strings. */
const ENCODE_SLICE = 12 * 1024;

export class InlineImage {
  /**
   * The frame's bytes: encoded to base64 only here, at the wire edge, straight into the provider's body, unless
   * `arrivedAs` holds the base64 text they arrived as (Frame.arrivedAs: ASCII, proven by decoding it to these bytes),
   * which is copied instead.
   */
  constructor(
    readonly mimeType: string,
    readonly bytes: Buffer,
    private readonly arrivedAs?: Buffer,
  ) {
    if (!MIME_TYPE.test(mimeType)) throw new TypeError(`not a MIME type: ${mimeType}`);
  }

  /** The length of the bytes' base64 (padded). */
  get base64Length(): number {
    return this.arrivedAs?.length ?? Math.ceil(this.bytes.length / 3) * 4;
  }

  get dataUrl(): string {
    return `data:${this.mimeType};base64,${this.arrivedAs ? this.arrivedAs.toString("latin1") : this.bytes.toString("base64")}`;
  }

  /** Anything that still stringifies a body with an InlineImage in it gets the data URL. */
  toJSON(): string {
    return this.dataUrl;
  }

  /**
   * Writes the base64 into `out` at `at` and returns where it ends. In slices: one ~320 KB string per call would live
   * in V8's large-object space, and making and collecting it cost more than the encoding itself.
   */
  writeBase64(out: Buffer, at: number): number {
    if (this.arrivedAs) return at + this.arrivedAs.copy(out, at);
    for (let start = 0; start < this.bytes.length; start += ENCODE_SLICE) {
      at += out.write(this.bytes.toString("base64", start, Math.min(this.bytes.length, start + ENCODE_SLICE)), at, "latin1");
    }
    return at;
  }
}

/**
 * A JSON request body as bytes. With an InlineImage as `image_url`, that field is written first and its bytes'
 * base64 written in as it is made; every other field goes through JSON.stringify as usual (they are small).
 */
export function encodeJsonBody(body: Record<string, unknown>): Buffer<ArrayBuffer> {
  const { image_url: image, ...rest } = body;
  if (!(image instanceof InlineImage)) return Buffer.from(JSON.stringify(body), "utf8");
  const head = `{"image_url":"data:${image.mimeType};base64,`;
  const others = JSON.stringify(rest);
  const tail = others === "{}" ? `"}` : `",${others.slice(1)}`;
  const tailBytes = Buffer.byteLength(tail, "utf8");
  const out = Buffer.allocUnsafe(head.length + image.base64Length + tailBytes);
  let at = out.write(head, 0, "latin1");
  at = image.writeBase64(out, at);
  out.write(tail, at, "utf8");
  return out;
}
