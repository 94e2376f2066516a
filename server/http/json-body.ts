// JSON request bodies as bytes → values, with a fast path for the one thing that makes AI and photo bodies big:
// a base64 image (~300 KB of text for a 1080p JPEG) in one string field.
//
// The plain way (decode the bytes to a string, JSON.parse it, then base64-decode the field) decodes and scans
// every character of the image twice and allocates two ~400 KB strings; with a frame's base64 that was the
// largest item of an AI call's CPU after the network (bench/vision.ts). Here the big string token is found in
// the bytes, checked by base64-decoding it straight away (which the image code needs anyway), and only the rest
// of the body goes through JSON.parse. The answer is exactly JSON.parse's: the fast path is taken only when the
// token's text is canonical base64 (optionally behind a `data:<type>;base64,` header), whose characters are
// never escaped in JSON, so the string's value is its bytes. Anything else falls back to the plain way.
//
// The image's text is decoded from the bytes in small slices, and a caller that passes it on as it is (the AI
// routes) can ask for it as bytes, with no JS string of the image at all (`bytesFor`): a ~320 KB string lives in
// V8's large-object space, and making and collecting one per call cost more than the rest of the body's parsing.
import { isAscii } from "node:buffer";
import { randomBytes } from "node:crypto";

/** Strings shorter than this are left to JSON.parse: the fast path pays off on images, not on text. */
const LARGE_STRING = 32 * 1024;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const EQUALS = 0x3d;
const DATA_URL_HEADER = /^data:[\w.+-]+\/[\w.+-]+;base64,/i;
const BASE64_EDGE = /^[A-Za-z0-9+/]*={0,2}$/;
/** Stands in for the big string while the rest is parsed; random, so no body can contain it by chance or on purpose. */
const PLACEHOLDER = `\u0000large-string-${randomBytes(12).toString("hex")}`;
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);
/** How deep the placeholder is looked for; a frame is a top-level field, deeper ones take the plain way. */
const MAX_DEPTH = 4;
/**
 * What a field left as bytes holds instead of its text: the string's own data URL header, then this (random, and
 * with no NUL, which the input checks refuse). Matched to its bytes in `decoded` by the vision service.
 */
const STAND_IN = `deferred-base64-${randomBytes(12).toString("hex")}`;
/** Base64 text decoded per slice (a multiple of 4): slices this small are short-lived young strings, cheap to collect. */
const DECODE_SLICE = 16 * 1024;

/**
 * A base64 string of a JSON body that the body reader already decoded (this module), handed on
 * with the validated input so the HTTP edge of frames (./frame-input.ts) does not decode it again.
 */
export interface DecodedBase64 {
  /** The string as it is in the parsed value (a data URL, or bare base64). */
  value: string;
  /** Where the base64 text starts in `value` (after a data URL's header; 0 for bare base64). */
  payloadStart: number;
  bytes: Buffer;
  /**
   * The base64 text after the header as bytes, when `value` is only a stand-in for it (the body reader was asked
   * to leave the field as bytes: server/http/json-body.ts `bytesFor`); `value` then holds the header and a marker.
   */
  text?: Buffer;
}

export interface ParseOptions {
  /**
   * A top-level field whose large base64 data URL the caller takes as bytes: the value then holds a stand-in (the
   * same data URL header, then a marker) and its `decoded` entry the text's bytes (`text`). Only for handlers that
   * hand the field to code reading `decoded` (server/vision/frames.ts); any other field, or a string without a
   * data URL header, is a plain string as always.
   */
  bytesFor?: string;
}

export interface ParsedJson {
  value: unknown;
  /** Base64 strings of the value that were decoded on the way (at most one: the body's largest string). */
  decoded: DecodedBase64[];
}

/** Parses a JSON body; throws SyntaxError exactly when JSON.parse of its UTF-8 text would. */
export function parseJsonBytes(bytes: Buffer, options: ParseOptions = {}): ParsedJson {
  const fast = bytes.length >= LARGE_STRING && isAscii(bytes) ? withLargeBase64String(bytes, options) : null;
  return fast ?? { value: JSON.parse(bytes.toString("utf8")) as unknown, decoded: [] };
}

function withLargeBase64String(bytes: Buffer, options: ParseOptions): ParsedJson | null {
  const token = largestStringToken(bytes);
  if (!token || token.end - token.start - 1 < LARGE_STRING) return null;
  // The string's text is ASCII (checked for the whole body), so its bytes are its characters.
  const text = bytes.subarray(token.start + 1, token.end);
  const decoded = decodeCanonicalBase64(text);
  if (!decoded) return null;
  // Same tokens as the original with the string swapped for the placeholder: a syntax error anywhere else is still one.
  const rest = `${bytes.toString("latin1", 0, token.start)}${PLACEHOLDER_JSON}${bytes.toString("latin1", token.end + 1, bytes.length)}`;
  const parsed = JSON.parse(rest) as unknown;
  const field = options.bytesFor;
  const asBytes =
    field !== undefined &&
    decoded.payloadStart > 0 &&
    parsed !== null &&
    typeof parsed === "object" &&
    !Array.isArray(parsed) &&
    Object.hasOwn(parsed, field) &&
    (parsed as Record<string, unknown>)[field] === PLACEHOLDER;
  // The stand-in keeps the header, so a check of the field's data URL header answers as it would for the text.
  const value = asBytes ? `${text.toString("latin1", 0, decoded.payloadStart)}${STAND_IN}` : text.toString("latin1");
  const found = replacePlaceholder(parsed, value, 0);
  if (found.count !== 1) return null; // a key, a duplicate key, or nested deep: let JSON.parse decide
  const entry: DecodedBase64 = { value, payloadStart: decoded.payloadStart, bytes: decoded.bytes };
  if (asBytes) entry.text = text.subarray(decoded.payloadStart);
  return { value: found.value, decoded: [entry] };
}

/**
 * The longest string token, by JSON's own tokenisation: outside strings a quote can only open one, and inside
 * a string a quote closes it unless an odd number of backslashes precede it. Tokens containing a backslash are
 * skipped as candidates (an escape would make the value differ from the bytes).
 */
function largestStringToken(bytes: Buffer): { start: number; end: number } | null {
  let best: { start: number; end: number } | null = null;
  let at = 0;
  for (;;) {
    const start = bytes.indexOf(QUOTE, at);
    if (start < 0) return best;
    let end = start;
    let escaped = false;
    for (;;) {
      end = bytes.indexOf(QUOTE, end + 1);
      if (end < 0) return best; // unterminated: JSON.parse will say so
      let slashes = 0;
      while (bytes[end - 1 - slashes] === BACKSLASH) slashes++;
      if (slashes > 0) escaped = true;
      if (slashes % 2 === 0) break;
    }
    if (!escaped && (!best || end - start > best.end - best.start) && bytes.subarray(start + 1, end).indexOf(BACKSLASH) < 0) best = { start, end };
    at = end + 1;
  }
}

/**
 * Decodes canonical, padded base64 text (behind an optional data URL header). Node's decoder skips characters
 * outside the alphabet, so a slice decoding to fewer bytes than its length promises means something else was in
 * there (a control character, whitespace, a quote, padding before the end...), and the answer is null. The text
 * is decoded slice by slice from the bytes straight into the output, so no string of the whole text is made.
 */
function decodeCanonicalBase64(text: Buffer): { payloadStart: number; bytes: Buffer } | null {
  const header = DATA_URL_HEADER.exec(text.toString("latin1", 0, Math.min(200, text.length)));
  const payloadStart = header ? header[0].length : 0;
  const length = text.length - payloadStart;
  if (length === 0 || length % 4 !== 0) return null;
  // Text that is plainly not base64 (a .cube file, a long note) is turned away before paying for a decode.
  if (!BASE64_EDGE.test(text.toString("latin1", payloadStart, payloadStart + 64)) || !BASE64_EDGE.test(text.toString("latin1", text.length - 64))) return null;
  const padding = text[text.length - 1] !== EQUALS ? 0 : text[text.length - 2] === EQUALS ? 2 : 1;
  const bytes = Buffer.allocUnsafe((length / 4) * 3);
  let written = 0;
  for (let at = payloadStart; at < text.length; at += DECODE_SLICE) {
    const end = Math.min(text.length, at + DECODE_SLICE);
    const got = bytes.write(text.toString("latin1", at, end), written, "base64");
    // Every slice but the last decodes whole; the last one may end in padding.
    if (got !== ((end - at) / 4) * 3 - (end === text.length ? padding : 0)) return null;
    written += got;
  }
  return { payloadStart, bytes: written === bytes.length ? bytes : bytes.subarray(0, written) };
}

/**
 * Puts the string back where the placeholder was parsed (an object's value or an array's item), counting the
 * places. Any count but 1 sends the body down the plain way, so odd shapes never need handling here.
 */
function replacePlaceholder(node: unknown, value: string, depth: number): { value: unknown; count: number } {
  if (node === PLACEHOLDER) return { value, count: 1 };
  if (node === null || typeof node !== "object") return { value: node, count: 0 };
  if (depth >= MAX_DEPTH) return { value: node, count: 2 };
  let count = 0;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length && count < 2; i++) {
      const inner = replacePlaceholder(node[i], value, depth + 1);
      if (inner.count === 1) node[i] = inner.value;
      count += inner.count;
    }
  } else {
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (key === PLACEHOLDER || key === "__proto__") return { value: node, count: 2 };
      const inner = replacePlaceholder(record[key], value, depth + 1);
      if (inner.count === 1) record[key] = inner.value;
      count += inner.count;
      if (count >= 2) break;
    }
  }
  return { value: node, count };
}
