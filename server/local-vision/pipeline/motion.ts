// Motion first, as Frigate does it: a small grey picture against a running-average background says whether anything
// moved and where, for a fraction of what decoding costs, so an empty scene never reaches the detector.
//
// Per frame: area-average the RGB frame down to a small grey picture, blur it lightly (sensor noise and compression
// shimmer), compare with the background, threshold, dilate once so a body's parts join, then label the connected moving
// areas; blobs too small to be anything are ignored, boxes near each other merged and padded. The background learns
// the picture slowly (a parked car, a moved chair fade in after a few seconds); a change over most of the picture at
// once (lights switched, the camera's auto-exposure or IR switch) is taken as a new background, not as motion.
import type { MotionDetector, MotionResult, RawFrame, Region } from "./types";

export interface MotionOptions {
  /** Width of the grey picture motion is computed on (the height keeps the aspect). Default 128. */
  width?: number;
  /** How much of each frame the background takes in (0–1). Default 0.1: at 5 frames/s, what stays still fades in over ~3 s. */
  alpha?: number;
  /** Grey levels (0–255) a pixel must differ from the background by to count as moving. Default 25. */
  threshold?: number;
  /** Moving areas smaller than this share of the picture are ignored (noise, a leaf). Default 0.0005 (~5 cells of 128×72, ~11×11 px at 640×360). */
  minArea?: number;
  /** A frame where more than this share of the picture changed resets the background instead of reporting motion. Default 0.6. */
  resetShare?: number;
}

/** Boxes closer than this (fraction of the picture's width/height) are one moving thing. */
const MERGE_GAP = 0.05;
/** Each box grows by this share of its size on every side, so the detector sees the whole of what moved. */
const PAD = 0.1;

export function createMotionDetector(options: MotionOptions = {}): MotionDetector {
  const targetWidth = options.width ?? 128;
  const alpha = options.alpha ?? 0.1;
  const threshold = options.threshold ?? 25;
  const minArea = options.minArea ?? 0.0005;
  const resetShare = options.resetShare ?? 0.6;

  let grid: Grid | undefined;
  let background: Float32Array | undefined;
  let seen = 0;

  return {
    update(frame: RawFrame): MotionResult {
      if (!grid || grid.frameWidth !== frame.width || grid.frameHeight !== frame.height) {
        grid = makeGrid(frame.width, frame.height, targetWidth);
        background = undefined;
      }
      const grey = blur(downscale(frame, grid), grid);
      if (!background) {
        background = Float32Array.from(grey);
        seen = 1;
        return { moving: 0, regions: [] };
      }
      const size = grid.width * grid.height;
      const mask = grid.mask.fill(0);
      let moving = 0;
      for (let i = 0; i < size; i++) {
        if (Math.abs(grey[i]! - background[i]!) > threshold) {
          mask[i] = 1;
          moving++;
        }
      }
      const share = moving / size;
      if (share > resetShare) {
        // Not a thing moving: the whole picture changed. Start again from this one.
        background.set(grey);
        seen = 1;
        return { moving: 0, regions: [] };
      }
      seen++;
      const rate = Math.max(alpha, 1 / seen);
      for (let i = 0; i < size; i++) background[i]! += (grey[i]! - background[i]!) * rate;
      if (moving === 0) return { moving: 0, regions: [] };
      const boxes = blobs(mask, dilate(mask, grid), grid, Math.max(1, minArea * size));
      const regions = merge(boxes.map((box) => toRegion(box, grid!)));
      return { moving: share, regions: regions.map(pad).sort((a, b) => b.w * b.h - a.w * a.h) };
    },
  };
}

/**
 * Which small-picture cell each sampled frame column and row falls in, and each cell's sample count (for the average).
 * Cells several pixels wide are sampled every other pixel and row: a quarter of the reads, the same average for motion.
 */
interface Grid {
  frameWidth: number;
  frameHeight: number;
  width: number;
  height: number;
  step: number;
  columnCell: Int32Array;
  rowCell: Int32Array;
  samples: Int32Array;
  /** Work arrays of the grid's size, reused every frame (no garbage per frame). */
  sums: Int32Array;
  grey: Float32Array;
  across: Float32Array;
  blurred: Float32Array;
  mask: Uint8Array;
  joined: Uint8Array;
  stack: Int32Array;
}

function makeGrid(frameWidth: number, frameHeight: number, targetWidth: number): Grid {
  const width = Math.max(1, Math.min(frameWidth, targetWidth));
  const height = Math.max(1, Math.round((frameHeight * width) / frameWidth));
  const step = frameWidth >= width * 4 ? 2 : 1;
  const columnCell = new Int32Array(frameWidth);
  const rowCell = new Int32Array(frameHeight);
  for (let x = 0; x < frameWidth; x++) columnCell[x] = Math.floor((x * width) / frameWidth);
  for (let y = 0; y < frameHeight; y++) rowCell[y] = Math.floor((y * height) / frameHeight);
  const samples = new Int32Array(width * height);
  for (let y = 0; y < frameHeight; y += step) for (let x = 0; x < frameWidth; x += step) samples[rowCell[y]! * width + columnCell[x]!]! += 1;
  const cells = width * height;
  const work = { sums: new Int32Array(cells), grey: new Float32Array(cells), across: new Float32Array(cells), blurred: new Float32Array(cells) };
  return {
    frameWidth,
    frameHeight,
    width,
    height,
    step,
    columnCell,
    rowCell,
    samples,
    ...work,
    mask: new Uint8Array(cells),
    joined: new Uint8Array(cells),
    stack: new Int32Array(cells),
  };
}

/** Area average of the frame's luma (BT.601 weights, in integers) into the grid's cells. */
function downscale(frame: RawFrame, grid: Grid): Float32Array {
  const { rgb } = frame;
  const { columnCell, rowCell, step, frameWidth, width } = grid;
  const sums = grid.sums.fill(0);
  const stride = step * 3;
  for (let y = 0; y < grid.frameHeight; y += step) {
    const rowBase = rowCell[y]! * width;
    let at = y * frameWidth * 3;
    for (let x = 0; x < frameWidth; x += step, at += stride) sums[rowBase + columnCell[x]!]! += rgb[at]! * 77 + rgb[at + 1]! * 150 + rgb[at + 2]! * 29;
  }
  const grey = grid.grey;
  for (let i = 0; i < sums.length; i++) grey[i] = sums[i]! / (grid.samples[i]! * 256);
  return grey;
}

/** A 3×3 binomial blur ([1 2 1] each way), edges clamped. */
function blur(grey: Float32Array, grid: Grid): Float32Array {
  const { width, height, across } = grid;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const left = grey[row + Math.max(0, x - 1)]!;
      const right = grey[row + Math.min(width - 1, x + 1)]!;
      across[row + x] = (left + 2 * grey[row + x]! + right) / 4;
    }
  }
  const out = grid.blurred;
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const down = Math.min(height - 1, y + 1) * width;
    const row = y * width;
    for (let x = 0; x < width; x++) out[row + x] = (across[up + x]! + 2 * across[row + x]! + across[down + x]!) / 4;
  }
  return out;
}

/** A pixel is moving if it or one of its 8 neighbours is: the parts of one body (head, legs) join into one blob. */
function dilate(mask: Uint8Array, grid: Grid): Uint8Array {
  const { width, height } = grid;
  const out = grid.joined.fill(0);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      for (let dy = Math.max(0, y - 1); dy <= Math.min(height - 1, y + 1); dy++) {
        for (let dx = Math.max(0, x - 1); dx <= Math.min(width - 1, x + 1); dx++) out[dy * width + dx] = 1;
      }
    }
  }
  return out;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Bounding boxes (inclusive cell coordinates) of the 8-connected areas of `joined` (the dilated mask) holding at least
 * `minPixels` cells that moved themselves (of `moved`, so the dilation's ring does not make a speck look bigger).
 */
function blobs(moved: Uint8Array, joined: Uint8Array, grid: Grid, minPixels: number): Box[] {
  const { width, height, stack } = grid;
  const mask = joined;
  const boxes: Box[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (mask[start] !== 1) continue;
    mask[start] = 2; // visited
    let top = 0;
    stack[top++] = start;
    let pixels = 0;
    const box = { x0: width, y0: height, x1: -1, y1: -1 };
    while (top > 0) {
      const i = stack[--top]!;
      const x = i % width;
      const y = (i - x) / width;
      pixels += moved[i]!;
      if (x < box.x0) box.x0 = x;
      if (x > box.x1) box.x1 = x;
      if (y < box.y0) box.y0 = y;
      if (y > box.y1) box.y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const n = ny * width + nx;
          if (mask[n] === 1) {
            mask[n] = 2;
            stack[top++] = n;
          }
        }
      }
    }
    if (pixels >= minPixels) boxes.push(box);
  }
  return boxes;
}

function toRegion(box: Box, grid: Grid): Region {
  return { x: box.x0 / grid.width, y: box.y0 / grid.height, w: (box.x1 + 1 - box.x0) / grid.width, h: (box.y1 + 1 - box.y0) / grid.height };
}

/** Joins regions that overlap or nearly touch, until none do. */
function merge(regions: Region[]): Region[] {
  const out = [...regions];
  for (let joined = true; joined;) {
    joined = false;
    for (let i = 0; i < out.length && !joined; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i]!;
        const b = out[j]!;
        const near = a.x <= b.x + b.w + MERGE_GAP && b.x <= a.x + a.w + MERGE_GAP && a.y <= b.y + b.h + MERGE_GAP && b.y <= a.y + a.h + MERGE_GAP;
        if (!near) continue;
        const x = Math.min(a.x, b.x);
        const y = Math.min(a.y, b.y);
        out[i] = { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
        out.splice(j, 1);
        joined = true;
        break;
      }
    }
  }
  return out;
}

function pad(region: Region): Region {
  const x = Math.max(0, region.x - region.w * PAD);
  const y = Math.max(0, region.y - region.h * PAD);
  return { x, y, w: Math.min(1, region.x + region.w * (1 + PAD)) - x, h: Math.min(1, region.y + region.h * (1 + PAD)) - y };
}
