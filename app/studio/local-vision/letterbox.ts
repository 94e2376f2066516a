// Letterboxing: a frame scaled into a model's input (square for most) with its aspect ratio kept and the rest padded, so people
// keep their shape (stretching a 16:9 frame to a square made them 1.8× thinner than the model learnt them).
import type { Box } from "./geometry";

/** Where the scaled frame sits in the square input, in input pixels. */
export interface Letterbox {
  width: number;
  height: number;
  left: number;
  top: number;
}

/** The largest frame-shaped rectangle that fits in a `size`×`sizeHeight` input (square by default), centred (padding split evenly). */
export function letterbox(frameWidth: number, frameHeight: number, size: number, sizeHeight = size): Letterbox {
  const scale = Math.min(size / frameWidth, sizeHeight / frameHeight);
  const width = Math.max(1, Math.min(size, Math.round(frameWidth * scale)));
  const height = Math.max(1, Math.min(sizeHeight, Math.round(frameHeight * scale)));
  return { width, height, left: Math.floor((size - width) / 2), top: Math.floor((sizeHeight - height) / 2) };
}

/** A box in input pixels (corners) back to the frame: corners as fractions of the frame, clamped to it. */
export function boxFromInput(fit: Letterbox, x1: number, y1: number, x2: number, y2: number): Box {
  const x = (value: number) => clamp((value - fit.left) / fit.width);
  const y = (value: number) => clamp((value - fit.top) / fit.height);
  return { x_min: x(x1), y_min: y(y1), x_max: x(x2), y_max: y(y2) };
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}
