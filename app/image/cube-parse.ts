// The TS half of .cube parsing: UTF-8 text into WASM memory, the WASM parser over it, and its
// result block turned into a ParsedLut or a CubeParseError. Tokenising, keywords and numbers all
// happen in WASM (assembly/cube-parser.ts), so server and browser share one parser.
import { LUT_1D_MAX_SIZE, LUT_1D_MIN_SIZE, LUT_3D_MAX_SIZE, LUT_3D_MIN_SIZE } from "./constants";
import { CUBE_PARSE_FAILED, countMismatchMessage, CubeParseError } from "./cube-parse-error";
import type { ParsedLut, Rgb } from "./types";
import type { WasmBlock, WasmHeap } from "./wasm-heap";

export interface ParseBlocks {
  text: WasmBlock;
  rows: WasmBlock;
  result: WasmBlock;
  capacityRows: number;
}

// Mirrors the result block of assembly/cube-parser.ts.
const RESULT_SLOTS = 13;
const STATUS_COUNT_MISMATCH = 1;
const STATUS_FAILED = 2;
const REASONS: Record<number, string> = {
  1: `A LUT_3D_SIZE must be one whole number from ${LUT_3D_MIN_SIZE} to ${LUT_3D_MAX_SIZE}, a LUT_1D_SIZE from ${LUT_1D_MIN_SIZE} to ${LUT_1D_MAX_SIZE}`,
  2: "The LUT size is declared more than once (1D shaper plus 3D files are not supported)",
  3: "DOMAIN_MIN/DOMAIN_MAX need three numbers, LUT_3D_INPUT_RANGE/LUT_1D_INPUT_RANGE two",
  4: "The domain maximum must be greater than the minimum on every channel",
};
/** Text above this stays allocated in the core only for the call. */
const KEEP_TEXT_BLOCK_BYTES = 1 << 20;

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

export function parseCubeInto(heap: WasmHeap, blocks: ParseBlocks, text: string, fileName: string | undefined, maxLength: number): ParsedLut {
  if (typeof text !== "string") throw new CubeParseError(CUBE_PARSE_FAILED, "The LUT text is not a string");
  if (text.length > maxLength) throw new CubeParseError(CUBE_PARSE_FAILED, `The LUT file is larger than ${maxLength} characters`);
  try {
    const length = writeText(heap, blocks.text, text);
    const rows = blocks.rows.reserve(blocks.capacityRows * 12);
    const resultPointer = blocks.result.reserve(RESULT_SLOTS * 8);
    const textPointer = blocks.text.pointer;
    heap.exports.parseCube(textPointer, length, rows, blocks.capacityRows, resultPointer);
    const result = heap.f64(resultPointer, RESULT_SLOTS).slice();
    const [status = STATUS_FAILED, reason = 0, kindCode, size = 0, rowCount = 0, titleStart = -1, titleEnd = -1] = result;
    const kind = kindCode === 1 ? "1d" : "3d";
    if (status === STATUS_FAILED) throw new CubeParseError(CUBE_PARSE_FAILED, REASONS[reason] ?? "Unknown parser failure");
    if (status === STATUS_COUNT_MISMATCH) {
      const message = countMismatchMessage(kind, size, rowCount * 3);
      throw new CubeParseError(message, message);
    }
    const title = titleStart >= 0 ? titleDecoder.decode(heap.u8.subarray(textPointer + titleStart, textPointer + titleEnd)).trim() : "";
    return {
      name: title || nameFromFileName(fileName) || "Untitled LUT",
      size,
      kind,
      domainMin: Array.from(result.subarray(7, 10)) as Rgb,
      domainMax: Array.from(result.subarray(10, 13)) as Rgb,
      data: heap.f32(rows, rowCount * 3).slice(),
    };
  } finally {
    if (blocks.text.bytes > KEEP_TEXT_BLOCK_BYTES) blocks.text.release();
  }
}
