// The TS half of .cube parsing: UTF-8 text into WASM memory, the WASM parser over it, and its
// result block turned into a ParsedLut or a CubeParseError. Tokenising, keywords and numbers all
// happen in WASM (assembly/cube-parser.ts), so server and browser share one parser.
import { LUT_1D_MAX_SIZE, LUT_1D_MIN_SIZE, LUT_3D_MIN_SIZE } from "./constants";
import { CUBE_PARSE_FAILED, countMismatchMessage, CubeParseError, tooLargeMessage } from "./cube-parse-error";
import type { ParsedLut, Rgb } from "./types";
import type { WasmBlock, WasmHeap } from "./wasm-heap";

export interface ParseBlocks {
  text: WasmBlock;
  rows: WasmBlock;
  result: WasmBlock;
}

// Mirrors the result block of assembly/cube-parser.ts.
const RESULT_SLOTS = 20;
const STATUS_OK = 0;
const STATUS_COUNT_MISMATCH = 1;
const STATUS_FAILED = 2;
const KIND_1D = 1;
const KIND_SHAPER_3D = 4;
const REASON_TOO_LARGE = 5;
const REASONS: Record<number, string> = {
  1: `A LUT_3D_SIZE must be one whole number of at least ${LUT_3D_MIN_SIZE}, a LUT_1D_SIZE from ${LUT_1D_MIN_SIZE} to ${LUT_1D_MAX_SIZE}`,
  2: "The same LUT size keyword appears more than once",
  3: "DOMAIN_MIN/DOMAIN_MAX need three numbers, LUT_3D_INPUT_RANGE/LUT_1D_INPUT_RANGE two",
  4: "The domain maximum must be greater than the minimum on every channel",
};
/** Row room reserved before the first parse (a 33³ cube); a larger valid file is parsed again with room for all its rows. */
const INITIAL_ROW_CAPACITY = 33 ** 3;
/** How much of a long text is parsed first to learn its declared sizes. */
const HEADER_SCAN_BYTES = 64 * 1024;
/** Text or rows above this stay allocated in the core only for the call. */
const KEEP_BLOCK_BYTES = 1 << 20;
/** How much of an over-long text is read for its header, to say which size is too large. */
export const CUBE_HEAD_LENGTH = 1 << 20;

const encoder = new TextEncoder();
const titleDecoder = new TextDecoder("utf-8");

/** "LUTs/Film Look.v2.cube" → "Film Look.v2"; empty when nothing is left. */
export function nameFromFileName(fileName: string | undefined): string {
  if (!fileName) return "";
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return (dot >= 0 ? base.slice(0, dot) : base).trim();
}

/** Writes `text` as UTF-8 into the text block and returns its byte length. */
function writeText(heap: WasmHeap, block: WasmBlock, text: string): number {
  // Most .cube files are ASCII (one byte per code unit); only retry at the UTF-8 worst case if not.
  let pointer = block.reserve(text.length + 16);
  let written = encoder.encodeInto(text, heap.u8.subarray(pointer, pointer + block.bytes));
  if (written.read < text.length) {
    pointer = block.reserve(text.length * 3 + 16);
    written = encoder.encodeInto(text, heap.u8.subarray(pointer, pointer + block.bytes));
  }
  return written.written;
}

/** Runs the WASM parser over the text block with room for `capacity` rows; returns the result block's fields. */
function runParser(heap: WasmHeap, blocks: ParseBlocks, length: number, capacity: number): Float64Array {
  const rows = blocks.rows.reserve(capacity * 12);
  const resultPointer = blocks.result.reserve(RESULT_SLOTS * 8);
  heap.exports.parseCube(blocks.text.pointer, length, rows, capacity, resultPointer);
  return heap.f64(resultPointer, RESULT_SLOTS).slice();
}

/**
 * The rows the header declares, from a parse of the text's first lines alone (files declare their
 * sizes before the rows), so one parse with room for all of them is enough; 0 when it does not say.
 */
function declaredRows(heap: WasmHeap, blocks: ParseBlocks, textLength: number): number {
  if (textLength <= HEADER_SCAN_BYTES) return 0;
  const bytes = heap.u8;
  let end = blocks.text.pointer + HEADER_SCAN_BYTES;
  while (end > blocks.text.pointer && bytes[end - 1] !== 10) end--; // whole lines only
  const [status, , kind, size = 0, , , , , , , , , , shaperSize = 0] = runParser(heap, blocks, end - blocks.text.pointer, 0);
  if (status === STATUS_FAILED || !size) return 0;
  return kind === KIND_1D ? size : size ** 3 + (kind === KIND_SHAPER_3D ? shaperSize : 0);
}

const rgb = (result: Float64Array, at: number) => Array.from(result.subarray(at, at + 3)) as Rgb;

/**
 * Text longer than `maxLength` is not parsed whole: its head alone tells whether a declared size is
 * beyond what is supported (the reason to give), else the text is simply too long.
 */
function refuseLongText(heap: WasmHeap, blocks: ParseBlocks, text: string, length: number, maxLength: number): never {
  const head = text.slice(0, CUBE_HEAD_LENGTH);
  const result = runParser(heap, blocks, writeText(heap, blocks.text, head), 0);
  const tooLong = `The LUT file is larger than ${maxLength} characters (${length})`;
  if (result[0] === STATUS_FAILED && result[1] === REASON_TOO_LARGE) {
    const message = tooLargeMessage(result[2] === KIND_1D ? "1d" : "3d", result[3]!);
    throw new CubeParseError(message, `${message}. ${tooLong}`);
  }
  throw new CubeParseError(CUBE_PARSE_FAILED, tooLong);
}

/**
 * Parses .cube text. `length` is the whole file's length when `text` is only its head (a file too
 * large to read whole): such a file always fails, with the reason its header gives when it has one.
 */
export function parseCubeInto(heap: WasmHeap, blocks: ParseBlocks, text: string, fileName: string | undefined, maxLength: number, length = text.length): ParsedLut {
  if (typeof text !== "string") throw new CubeParseError(CUBE_PARSE_FAILED, "The LUT text is not a string");
  try {
    if (length > maxLength || text.length > maxLength) refuseLongText(heap, blocks, text, Math.max(length, text.length), maxLength);
    const textLength = writeText(heap, blocks.text, text);
    const capacity = Math.max(INITIAL_ROW_CAPACITY, Math.floor(blocks.rows.bytes / 12), declaredRows(heap, blocks, textLength));
    let result = runParser(heap, blocks, textLength, capacity);
    // Rows beyond the room given were only counted: when the count is right (a header after the rows), parse again with room for all.
    if (result[0] === STATUS_OK && result[4]! > capacity) result = runParser(heap, blocks, textLength, result[4]!);
    const [status = STATUS_FAILED, reason = 0, kindCode, size = 0, rowCount = 0, titleStart = -1, titleEnd = -1] = result;
    const kind = kindCode === KIND_1D ? "1d" : "3d";
    const shaperSize = kindCode === KIND_SHAPER_3D ? result[13]! : 0;
    if (status === STATUS_FAILED && reason === REASON_TOO_LARGE) {
      const message = tooLargeMessage(kind, size);
      throw new CubeParseError(message, message);
    }
    if (status === STATUS_FAILED) throw new CubeParseError(CUBE_PARSE_FAILED, REASONS[reason] ?? "Unknown parser failure");
    if (status === STATUS_COUNT_MISMATCH) {
      const message = countMismatchMessage({ kind, size, shaperSize }, rowCount * 3);
      throw new CubeParseError(message, message);
    }
    const textPointer = blocks.text.pointer;
    const title = titleStart >= 0 ? titleDecoder.decode(heap.u8.subarray(textPointer + titleStart, textPointer + titleEnd)).trim() : "";
    const rows = heap.f32(blocks.rows.pointer, rowCount * 3);
    const lut: ParsedLut = {
      name: title || nameFromFileName(fileName) || "Untitled LUT",
      size,
      kind,
      domainMin: rgb(result, 7),
      domainMax: rgb(result, 10),
      data: rows.slice(shaperSize * 3),
    };
    if (shaperSize) lut.shaper = { size: shaperSize, domainMin: rgb(result, 14), domainMax: rgb(result, 17), data: rows.slice(0, shaperSize * 3) };
    return lut;
  } finally {
    if (blocks.text.bytes > KEEP_BLOCK_BYTES) blocks.text.release();
    if (blocks.rows.bytes > KEEP_BLOCK_BYTES) blocks.rows.release();
  }
}
