// The .cube parser (Adobe Cube 1.0 plus the Resolve variant: its input ranges, and a 1D shaper
// followed by a 3D table in one file), run over UTF-8 bytes in linear time.
//
// It writes data rows (RGB f32) to `out` up to a given capacity and only counts rows past it, so
// hostile input can neither grow memory nor hang: the caller validates the count against the
// declared sizes afterwards (and parses again with room for every row when they match). A shaper
// file's rows are the shaper's first, then the cube's. Results go to a block of f64 fields (see
// RESULT_* below) read by TS.
import { parseDecimal } from "./decimal";

export const MIN_3D_SIZE = 2;
/** Mirrors LUT_3D_MAX_SIZE in app/image/constants.ts (a test pins that they are equal; see there why 129). */
export const MAX_3D_SIZE = 129;
export const MIN_1D_SIZE = 2;
export const MAX_1D_SIZE = 65536;
export const DEFAULT_3D_SIZE = 33;

// Result block layout (f64 slots).
const RESULT_STATUS = 0; // STATUS_*
const RESULT_REASON = 1; // REASON_* when STATUS_FAILED
const RESULT_KIND = 2; // KIND_*
const RESULT_SIZE = 3; // the main table's size (with REASON_TOO_LARGE: the size declared)
const RESULT_ROWS = 4; // data rows seen (three numbers each)
const RESULT_TITLE_START = 5; // byte offsets into the text, -1 when there is no TITLE
const RESULT_TITLE_END = 6;
const RESULT_DOMAIN_MIN = 7; // 3 slots: the main table's input domain
const RESULT_DOMAIN_MAX = 10; // 3 slots
const RESULT_SHAPER_SIZE = 13; // 0 without a shaper
const RESULT_SHAPER_MIN = 14; // 3 slots: the shaper's input domain
const RESULT_SHAPER_MAX = 17; // 3 slots
export const RESULT_SLOTS = 20;

const KIND_1D = 1;
const KIND_3D = 3;
const KIND_SHAPER_3D = 4; // a 1D shaper, then a 3D table

const STATUS_OK = 0;
const STATUS_COUNT_MISMATCH = 1;
const STATUS_FAILED = 2;

const REASON_BAD_SIZE = 1; // size keyword without one integer of at least the minimum
const REASON_SIZE_REDECLARED = 2; // the same size keyword twice
const REASON_BAD_DOMAIN = 3; // domain keyword without the right count of numbers
const REASON_EMPTY_DOMAIN = 4; // domain max not above min on some channel
const REASON_TOO_LARGE = 5; // a whole size above the maximum (RESULT_KIND and RESULT_SIZE say which)

// Per-parse state, kept in globals so helpers need no allocation.
let text: usize = 0;
let textEnd: usize = 0;
let result: usize = 0;
let declared3d: i32 = 0;
let declared1d: i32 = 0;

// Input domains as the keywords give them; which table each applies to is settled at the end, once
// the file's kind is known. Slots: DOMAIN_MIN r g b, DOMAIN_MAX r g b, 1D range min max, 3D range min max.
const domains = memory.data(10 * 8);
const DOMAIN_MIN_AT = 0;
const DOMAIN_MAX_AT = 3;
const RANGE_1D_AT = 6;
const RANGE_3D_AT = 8;
let range1dSet = false;
let range3dSet = false;

@inline function setDomain(slot: i32, value: f64): void {
  store<f64>(domains + (<usize>slot << 3), value);
}

@inline function getDomain(slot: i32): f64 {
  return load<f64>(domains + (<usize>slot << 3));
}

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

/**
 * The size after a keyword: a whole number from `min` to i32's maximum (past that it is no size any
 * tool writes), or -1. It may exceed the supported maximum (checked by the caller).
 */
function readSize(p: usize, end: usize, min: i32): f64 {
  if (readNumbers(p, end, 1) != 1) return -1;
  const value = scratchNumber(0);
  if (value != Math.floor(value) || value < min || value > <f64>i32.MAX_VALUE) return -1;
  return value;
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

/** LUT_1D_SIZE and LUT_3D_SIZE, each at most once: both together make a Resolve shaper file. */
function handleSize(p: usize, end: usize, is3d: bool): void {
  if (is3d ? declared3d != 0 : declared1d != 0) {
    fail(REASON_SIZE_REDECLARED);
    return;
  }
  const size = readSize(p, end, is3d ? MIN_3D_SIZE : MIN_1D_SIZE);
  if (size < 0) {
    fail(REASON_BAD_SIZE);
    return;
  }
  if (size > <f64>(is3d ? MAX_3D_SIZE : MAX_1D_SIZE)) {
    if (getField(RESULT_STATUS) == STATUS_OK) {
      setField(RESULT_KIND, is3d ? KIND_3D : KIND_1D);
      setField(RESULT_SIZE, size);
    }
    fail(REASON_TOO_LARGE);
    return;
  }
  if (is3d) declared3d = <i32>size;
  else declared1d = <i32>size;
}

/** DOMAIN_MIN/DOMAIN_MAX take r g b. */
function handleDomain(p: usize, end: usize, at: i32): void {
  if (readNumbers(p, end, 3) != 3) {
    fail(REASON_BAD_DOMAIN);
    return;
  }
  for (let i = 0; i < 3; i++) setDomain(at + i, scratchNumber(i));
}

/** The Resolve LUT_1D_INPUT_RANGE/LUT_3D_INPUT_RANGE take one min and one max for all channels. */
function handleInputRange(p: usize, end: usize, is3d: bool): void {
  if (readNumbers(p, end, 2) != 2) {
    fail(REASON_BAD_DOMAIN);
    return;
  }
  const at = is3d ? RANGE_3D_AT : RANGE_1D_AT;
  setDomain(at, scratchNumber(0));
  setDomain(at + 1, scratchNumber(1));
  if (is3d) range3dSet = true;
  else range1dSet = true;
}

function handleKeyword(p: usize, end: usize): void {
  const stop = tokenEnd(p);
  if (tokenIs(p, stop, "TITLE")) handleTitle(stop, end);
  else if (tokenIs(p, stop, "LUT_3D_SIZE")) handleSize(stop, end, true);
  else if (tokenIs(p, stop, "LUT_1D_SIZE")) handleSize(stop, end, false);
  else if (tokenIs(p, stop, "DOMAIN_MIN")) handleDomain(stop, end, DOMAIN_MIN_AT);
  else if (tokenIs(p, stop, "DOMAIN_MAX")) handleDomain(stop, end, DOMAIN_MAX_AT);
  else if (tokenIs(p, stop, "LUT_3D_INPUT_RANGE")) handleInputRange(stop, end, true);
  else if (tokenIs(p, stop, "LUT_1D_INPUT_RANGE")) handleInputRange(stop, end, false);
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
  range1dSet = false;
  range3dSet = false;
  for (let i = 0; i < RESULT_SLOTS; i++) setField(i, 0);
  setField(RESULT_TITLE_START, -1);
  setField(RESULT_TITLE_END, -1);
  for (let i = 0; i < 3; i++) {
    setDomain(DOMAIN_MIN_AT + i, 0);
    setDomain(DOMAIN_MAX_AT + i, 1);
  }

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

  if (getField(RESULT_STATUS) != STATUS_OK) return;
  const kind = declared1d == 0 ? KIND_3D : declared3d == 0 ? KIND_1D : KIND_SHAPER_3D;
  const size = kind == KIND_1D ? declared1d : declared3d != 0 ? declared3d : DEFAULT_3D_SIZE;
  setField(RESULT_KIND, kind);
  setField(RESULT_SIZE, size);
  settleDomains(kind);
  if (getField(RESULT_STATUS) != STATUS_OK) return;
  let expectedRows = kind == KIND_1D ? <f64>size : <f64>size * size * size;
  if (kind == KIND_SHAPER_3D) expectedRows += <f64>declared1d;
  if (getField(RESULT_ROWS) != expectedRows) setField(RESULT_STATUS, STATUS_COUNT_MISMATCH);
}

function setRange(minSlot: i32, maxSlot: i32, rangeAt: i32): void {
  for (let i = 0; i < 3; i++) {
    setField(minSlot + i, getDomain(rangeAt));
    setField(maxSlot + i, getDomain(rangeAt + 1));
  }
}

function setAdobeDomain(minSlot: i32, maxSlot: i32): void {
  for (let i = 0; i < 3; i++) {
    setField(minSlot + i, getDomain(DOMAIN_MIN_AT + i));
    setField(maxSlot + i, getDomain(DOMAIN_MAX_AT + i));
  }
}

function checkDomain(minSlot: i32, maxSlot: i32): void {
  for (let i = 0; i < 3; i++) {
    if (!(getField(maxSlot + i) > getField(minSlot + i))) fail(REASON_EMPTY_DOMAIN);
  }
}

/**
 * Which domain each table gets. A single table takes its own kind's input range, else the other
 * kind's (tools mix them up), else DOMAIN_MIN/DOMAIN_MAX. In a shaper file, as Resolve reads it, the
 * 1D range (or DOMAIN_*) maps the file's input into the shaper, and the 3D range maps the shaper's
 * output into the cube (0..1 when absent).
 */
function settleDomains(kind: i32): void {
  if (kind == KIND_SHAPER_3D) {
    setField(RESULT_SHAPER_SIZE, declared1d);
    if (range1dSet) setRange(RESULT_SHAPER_MIN, RESULT_SHAPER_MAX, RANGE_1D_AT);
    else setAdobeDomain(RESULT_SHAPER_MIN, RESULT_SHAPER_MAX);
    checkDomain(RESULT_SHAPER_MIN, RESULT_SHAPER_MAX);
    if (range3dSet) setRange(RESULT_DOMAIN_MIN, RESULT_DOMAIN_MAX, RANGE_3D_AT);
    else for (let i = 0; i < 3; i++) setField(RESULT_DOMAIN_MAX + i, 1);
  } else {
    let rangeAt = -1;
    if (kind == KIND_3D) rangeAt = range3dSet ? RANGE_3D_AT : range1dSet ? RANGE_1D_AT : -1;
    else rangeAt = range1dSet ? RANGE_1D_AT : range3dSet ? RANGE_3D_AT : -1;
    if (rangeAt >= 0) setRange(RESULT_DOMAIN_MIN, RESULT_DOMAIN_MAX, rangeAt);
    else setAdobeDomain(RESULT_DOMAIN_MIN, RESULT_DOMAIN_MAX);
  }
  checkDomain(RESULT_DOMAIN_MIN, RESULT_DOMAIN_MAX);
}
