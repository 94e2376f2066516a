// Local detection's box labels ("person #12") sized to their box and placed where they cover no other label and no
// line or zone counter: in a wide shot a label as tall as the default text size would be taller than the people and
// pile up over its neighbours. Pure, in the canvas's pixels.
import { LABEL_SIZES, type LabelLayout, type LabelSize } from "../box-labels";
import type { Rect } from "../geometry";

/** A label is at most this share of its box's height, and at most as wide as its box. */
export const LABEL_SHARE_OF_BOX = 0.25;
/** The smallest font drawn (CSS pixels): a label that would need less is shrunk to this only if it still fits MAX_SHARE. */
export const MIN_FONT_PX = 9;
/** Above this share of its box's height a label is not drawn at all: the box alone says more than a label that hides it. */
export const MAX_SHARE = 0.5;

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const within = (r: Rect, bounds: Rect) => r.x >= bounds.x && r.y >= bounds.y && r.x + r.width <= bounds.x + bounds.width + 0.5 && r.y + r.height <= bounds.y + bounds.height + 0.5;

/**
 * Each label's layout, or null when it has no room: its size from the chosen label size (× font multiplier × device
 * pixel ratio `scale`) shrunk to its box, then the first free spot of: above the box, inside its top, below it, inside
 * its bottom. Earlier labels win a contested spot. `avoid` (the counters) and `bounds` are in the same pixels.
 */
export function placeTrackLabels(
  items: ReadonlyArray<{ text: string; box: Rect }>,
  size: LabelSize,
  fontMultiplier: number,
  scale: number,
  bounds: Rect,
  avoid: readonly Rect[],
): Array<LabelLayout | null> {
  const metrics = LABEL_SIZES[size];
  const placed: Rect[] = [];
  return items.map(({ text, box }) => {
    const k = fontMultiplier * scale;
    const natural = { height: metrics.height * k, width: text.length * metrics.charWidth * k + metrics.padding * k };
    const fit = Math.min(1, (box.height * LABEL_SHARE_OF_BOX) / natural.height, box.width / natural.width);
    const smallest = Math.min(1, (MIN_FONT_PX * scale) / (metrics.font * k));
    const f = Math.max(fit, smallest);
    const height = natural.height * f;
    const width = natural.width * f;
    if (height > box.height * MAX_SHARE) return null;
    const x = Math.max(bounds.x, Math.min(box.x, bounds.x + bounds.width - width));
    const spots = [box.y - height, box.y, box.y + box.height, box.y + box.height - height];
    for (const y of spots) {
      const rect = { x, y, width, height };
      if (!within(rect, bounds) || placed.some((p) => overlaps(p, rect)) || avoid.some((a) => overlaps(a, rect))) continue;
      placed.push(rect);
      const padding = metrics.padding * k * f;
      return { rect, font: metrics.font * k * f, textX: x + padding / 2, textY: y + height / 2 };
    }
    return null;
  });
}
