// The .cube parser (Adobe Cube 1.0 plus the Resolve keywords), run over UTF-8 bytes in linear time.
//
// It writes data rows (RGB f32) to `out` up to a fixed capacity and only counts rows past it, so
// hostile input can neither grow memory nor hang: the caller validates the count against the
// declared size afterwards. Results go to a block of f64 fields (see RESULT_* below) read by TS.
import { parseDecimal } from "./decimal";

export const MIN_3D_SIZE = 2;
export const MAX_3D_SIZE = 64;
export const MIN_1D_SIZE = 2;
export const MAX_1D_SIZE = 65536;
export const DEFAULT_3D_SIZE = 33;

// Result block layout (f64 slots).
const RESULT_STATUS = 0; // STATUS_*
const RESULT_REASON = 1; // REASON_* when STATUS_FAILED
const RESULT_KIND = 2; // 3 or 1
const RESULT_SIZE = 3;
const RESULT_ROWS = 4; // data rows seen (three numbers each)
const RESULT_TITLE_START = 5; // byte offsets into the text, -1 when there is no TITLE
const RESULT_TITLE_END = 6;
const RESULT_DOMAIN_MIN = 7; // 3 slots
const RESULT_DOMAIN_MAX = 10; // 3 slots
export const RESULT_SLOTS = 13;

const STATUS_OK = 0;
const STATUS_COUNT_MISMATCH = 1;
const STATUS_FAILED = 2;

const REASON_BAD_SIZE = 1; // size keyword without one integer in range
const REASON_SIZE_REDECLARED = 2; // a size keyword twice, or both 1D and 3D (Resolve shaper files)
const REASON_BAD_DOMAIN = 3; // domain keyword without the right count of numbers
const REASON_EMPTY_DOMAIN = 4; // domain max not above min on some channel

// Per-parse state, kept in globals so helpers need no allocation.
let text: usize = 0;
let textEnd: usize = 0;
let result: usize = 0;
let declared3d: i32 = 0;
let declared1d: i32 = 0;

@inline function isBlank(c: u32): bool {
  return c == 32 || c == 9 || c == 11 || c == 12; // space, tab, vertical tab, form feed
}

@inline function isLineEnd(c: u32): bool {
  return c == 10 || c == 13;
}

@inline function isLetter(c: u32): bool {
  return ((c | 32) - 97) < 26;
}

@inline function setField(slot: i32, value: f64): void {
  store<f64>(result + (<usize>slot << 3), value);
}

@inline function getField(slot: i32): f64 {
  return load<f64>(result + (<usize>slot << 3));
}

function fail(reason: i32): void {
  if (getField(RESULT_STATUS) == STATUS_OK) {
    setField(RESULT_STATUS, STATUS_FAILED);
    setField(RESULT_REASON, reason);
  }
}

function skipBlanks(p: usize): usize {
  while (p < textEnd && isBlank(load<u8>(p))) p++;
  return p;
}

/** End of the token starting at p (a run of bytes that are neither blanks nor line ends). */
function tokenEnd(p: usize): usize {
  while (p < textEnd) {
    const c = <u32>load<u8>(p);
    if (isBlank(c) || isLineEnd(c)) break;
    p++;
  }
  return p;
}

function lineEnd(p: usize): usize {
  while (p < textEnd && !isLineEnd(load<u8>(p))) p++;
  return p;
}

/** Case-insensitive comparison of the token [start, end) with an ASCII keyword. */
function tokenIs(start: usize, end: usize, keyword: string): bool {
  const length = keyword.length;
  if (<i32>(end - start) != length) return false;
  for (let i = 0; i < length; i++) {
    let c = <u32>load<u8>(start + i);
    if (c - 97 < 26) c -= 32;
    if (c != <u32>keyword.charCodeAt(i)) return false;
  }
  return true;
}

// Static scratch for a keyword's numbers (no managed objects anywhere in this module).
const numberScratch = memory.data(32);
@inline function scratchNumber(index: i32): f64 {
  return load<f64>(numberScratch + (<usize>index << 3));
}

/**
 * Reads up to `max` numbers after a keyword into the scratch and returns how many tokens there
 * were (max + 1 when there were more), or -1 if one was not a finite number.
 */
function readNumbers(p: usize, end: usize, max: i32): i32 {
  let count = 0;
  p = skipBlanks(p);
  while (p < end) {
    const stop = tokenEnd(p);
    if (count >= max) return max + 1;
    const value = parseDecimal(p, stop);
    if (!isFinite(value)) return -1;
    store<f64>(numberScratch + (<usize>count << 3), value);
    count++;
    p = skipBlanks(stop);
  }
  return count;
}

function readSize(p: usize, end: usize, min: i32, max: i32): i32 {
  if (readNumbers(p, end, 1) != 1) return -1;
  const value = scratchNumber(0);
  if (value != Math.floor(value) || value < min || value > max) return -1;
  return <i32>value;
}

function handleTitle(p: usize, end: usize): void {
  if (getField(RESULT_TITLE_START) >= 0) return; // the first TITLE names the LUT
  p = skipBlanks(p);
  let stop = end;
  while (stop > p && isBlank(load<u8>(stop - 1))) stop--;
  if (p < stop && load<u8>(p) == 34) { // "quoted", lenient about a missing closing quote
    p++;
    let close = p;
    while (close < stop && load<u8>(close) != 34) close++;
    stop = close;
  }
  setField(RESULT_TITLE_START, <f64>(p - text));
  setField(RESULT_TITLE_END, <f64>(stop - text));
}

function handleSize(p: usize, end: usize, is3d: bool): void {
  if (declared3d != 0 || declared1d != 0) {
    fail(REASON_SIZE_REDECLARED);
    return;
  }
  const size = is3d ? readSize(p, end, MIN_3D_SIZE, MAX_3D_SIZE) : readSize(p, end, MIN_1D_SIZE, MAX_1D_SIZE);
  if (size < 0) {
    fail(REASON_BAD_SIZE);
    return;
  }
  if (is3d) declared3d = size;
  else declared1d = size;
}

/** DOMAIN_MIN/DOMAIN_MAX take r g b; the Resolve *_INPUT_RANGE keywords take one min and one max. */
function handleDomain(p: usize, end: usize, slot: i32): void {
  if (readNumbers(p, end, 3) != 3) {
    fail(REASON_BAD_DOMAIN);
    return;
  }
  for (let i = 0; i < 3; i++) setField(slot + i, scratchNumber(i));
}

function handleInputRange(p: usize, end: usize): void {
  if (readNumbers(p, end, 2) != 2) {
    fail(REASON_BAD_DOMAIN);
    return;
  }
  for (let i = 0; i < 3; i++) {
    setField(RESULT_DOMAIN_MIN + i, scratchNumber(0));
    setField(RESULT_DOMAIN_MAX + i, scratchNumber(1));
  }
}

function handleKeyword(p: usize, end: usize): void {
  const stop = tokenEnd(p);
  if (tokenIs(p, stop, "TITLE")) handleTitle(stop, end);
  else if (tokenIs(p, stop, "LUT_3D_SIZE")) handleSize(stop, end, true);
  else if (tokenIs(p, stop, "LUT_1D_SIZE")) handleSize(stop, end, false);
  else if (tokenIs(p, stop, "DOMAIN_MIN")) handleDomain(stop, end, RESULT_DOMAIN_MIN);
  else if (tokenIs(p, stop, "DOMAIN_MAX")) handleDomain(stop, end, RESULT_DOMAIN_MAX);
  else if (tokenIs(p, stop, "LUT_3D_INPUT_RANGE") || tokenIs(p, stop, "LUT_1D_INPUT_RANGE")) handleInputRange(stop, end);
  // Other keywords (LUT_IN_VIDEO_RANGE, vendor extensions) and stray words are not data: ignored.
}

/** A data row is exactly three numbers; anything else on a non-keyword line makes it not data. */
function handleDataCandidate(p: usize, end: usize, out: usize, capacityRows: u32): void {
  let count = 0;
  let r: f32 = 0, g: f32 = 0, b: f32 = 0;
  while (p < end) {
    if (count == 3) return;
    const stop = tokenEnd(p);
    const value = <f32>parseDecimal(p, stop);
    if (!(Mathf.abs(value) <= f32.MAX_VALUE)) return; // NaN, or overflowed f32
    if (count == 0) r = value;
    else if (count == 1) g = value;
    else b = value;
    count++;
    p = skipBlanks(stop);
  }
  if (count != 3) return;
  const rows = <u32>getField(RESULT_ROWS);
  if (rows < capacityRows) {
    const at = out + (<usize>rows * 12);
    store<f32>(at, r);
    store<f32>(at, g, 4);
    store<f32>(at, b, 8);
  }
  setField(RESULT_ROWS, <f64>(rows + 1));
}

export function parseCube(textPtr: usize, length: usize, out: usize, capacityRows: u32, resultPtr: usize): void {
  text = textPtr;
  textEnd = textPtr + length;
  result = resultPtr;
  declared3d = 0;
  declared1d = 0;
  for (let i = 0; i < RESULT_SLOTS; i++) setField(i, 0);
  setField(RESULT_TITLE_START, -1);
  setField(RESULT_TITLE_END, -1);
  for (let i = 0; i < 3; i++) setField(RESULT_DOMAIN_MAX + i, 1);

  let p = text;
  if (length >= 3 && load<u8>(p) == 0xef && load<u8>(p, 1) == 0xbb && load<u8>(p, 2) == 0xbf) p += 3; // BOM
  while (p < textEnd) {
    p = skipBlanks(p);
    const end = lineEnd(p);
    if (p < end) {
      const first = <u32>load<u8>(p);
      if (first == 35) {
        // # comment
      } else if (isLetter(first)) {
        handleKeyword(p, end);
      } else {
        handleDataCandidate(p, end, out, capacityRows);
      }
    }
    p = end + 1; // CRLF leaves an empty line behind, which is skipped like any blank line
  }

  for (let i = 0; i < 3; i++) {
    if (!(getField(RESULT_DOMAIN_MAX + i) > getField(RESULT_DOMAIN_MIN + i))) fail(REASON_EMPTY_DOMAIN);
  }
  const is1d = declared1d != 0;
  const size = is1d ? declared1d : declared3d != 0 ? declared3d : DEFAULT_3D_SIZE;
  setField(RESULT_KIND, is1d ? 1 : 3);
  setField(RESULT_SIZE, size);
  if (getField(RESULT_STATUS) != STATUS_OK) return;
  const expectedRows = is1d ? <f64>size : <f64>size * size * size;
  if (getField(RESULT_ROWS) != expectedRows) setField(RESULT_STATUS, STATUS_COUNT_MISMATCH);
}
