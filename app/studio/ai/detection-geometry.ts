// Where detections land on screen: normalised 0–1 frame coordinates → pixels of a picture rectangle
// (the canvas over the displayed picture, or a letterboxed rectangle inside a larger box), and where a
// box's label goes. Pure, so the mapping is unit-tested without a browser.
import { LABEL_SIZES, type LabelLayout, type LabelSize } from "../box-labels";
import type { Rect } from "../geometry";
import type { Box, Point } from "../../schemas/vision";

/** A normalised box in pixels of `rect` (which may be offset, as a letterboxed picture is). */
export function boxToRect(box: Box, rect: Rect): Rect {
  const x0 = Math.min(box.x_min, box.x_max);
  const x1 = Math.max(box.x_min, box.x_max);
  const y0 = Math.min(box.y_min, box.y_max);
  const y1 = Math.max(box.y_min, box.y_max);
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const left = clamp(x0) * rect.width;
  const top = clamp(y0) * rect.height;
  return { x: rect.x + left, y: rect.y + top, width: clamp(x1) * rect.width - left, height: clamp(y1) * rect.height - top };
}

export function pointToXY(point: Point, rect: Rect): { x: number; y: number } {
  return { x: rect.x + point.x * rect.width, y: rect.y + point.y * rect.height };
}

/**
 * The label of a box: the §9 size table scaled by the font multiplier and the device pixel ratio
 * (`scale`); width from the character width × length plus padding. It sits on the box's top edge,
 * above the box when there is room, inside it otherwise, and is kept within `bounds`.
 */
export function labelLayout(text: string, box: Rect, size: LabelSize, fontMultiplier: number, scale: number, bounds: Rect): LabelLayout {
  const metrics = LABEL_SIZES[size];
  const k = fontMultiplier * scale;
  const height = metrics.height * k;
  const width = Math.min(bounds.width, text.length * metrics.charWidth * k + metrics.padding * k);
  let y = box.y - height;
  if (y < bounds.y) y = box.y; // no room above: inside the box's top
  y = Math.min(y, bounds.y + bounds.height - height);
  const x = Math.max(bounds.x, Math.min(box.x, bounds.x + bounds.width - width));
  return { rect: { x, y, width, height }, font: metrics.font * k, textX: x + (metrics.padding * k) / 2, textY: y + height / 2 };
}

/** The index of the top-most box under a position (popup labels show on hover/tap), or -1. */
export function boxAt(rects: Rect[], x: number, y: number): number {
  for (let i = rects.length - 1; i >= 0; i--) {
    const r = rects[i]!;
    if (x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height) return i;
  }
  return -1;
}
