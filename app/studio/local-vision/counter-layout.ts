// Where the lines' and zones' counters sit on the picture, and the room they take, so the overlay draws them there and
// local detection's box labels keep off them. Pure: pixels of the displayed picture in, spots and rectangles out.
import type { Rect } from "../geometry";
import type { Point } from "./geometry";
import { toPixels, zoneLabelPoint, type Size } from "./region-geometry";

/** The counters' font size (px) and a generous average glyph width of its semibold digits and letters. */
export const COUNTER_FONT_PX = 12;
const COUNTER_CHAR_PX = 7.2;
/** A zone's counter sits this far below its top-most corner, inside the zone. */
export const ZONE_COUNTER_DY = 20;

export interface CounterSpot {
  x: number;
  /** The text's baseline. */
  y: number;
  textAnchor: "start" | "end";
}

/** A counter's spot near a point, kept inside the picture, its text running away from the nearer side edge. */
export function counterSpot(p: Point, size: Size): CounterSpot {
  const px = toPixels(p, size);
  const right = px.x > size.width / 2;
  return { x: Math.min(Math.max(px.x + (right ? -6 : 6), 4), size.width - 4), y: Math.min(Math.max(px.y - 8, 14), size.height - 4), textAnchor: right ? "end" : "start" };
}

/**
 * Room kept around a counter's text box. Chromium's box of a 12 px counter runs from 14 px above the baseline to 6 px
 * below it and starts 3 px before its x (the halo's stroke and side bearing): the estimate below covers that with
 * SPARE_PX more on every side, so a label just clear of the estimate is never over the text as drawn.
 */
const SPARE_PX = 3;
/** Above and below the baseline, the text box as drawn (see SPARE_PX). */
const ASCENT_PX = 14;
const DESCENT_PX = 6;
const LEAD_PX = 3;

/** The rectangle a counter's text covers (estimated from its length), with SPARE_PX to spare around it. */
export function counterRect(text: string, spot: CounterSpot, dy = 0): Rect {
  const width = text.length * COUNTER_CHAR_PX;
  const x = spot.textAnchor === "start" ? spot.x : spot.x - width;
  const baseline = spot.y + dy;
  return {
    x: x - LEAD_PX - SPARE_PX,
    y: baseline - ASCENT_PX - SPARE_PX,
    width: width + 2 * (LEAD_PX + SPARE_PX),
    height: ASCENT_PX + DESCENT_PX + 2 * SPARE_PX,
  };
}

/** Where a line's counter goes: by its upper end. */
export function lineCounterPoint(a: Point, b: Point): Point {
  return a.y <= b.y ? a : b;
}

/** The rectangles of every counter on the picture: lines by their upper end, zones under their top-most corner. */
export function counterRects(
  regions: { lines: ReadonlyArray<{ id: string; a: Point; b: Point }>; zones: ReadonlyArray<{ id: string; polygon: readonly Point[] }> },
  text: Record<string, string>,
  size: Size,
): Rect[] {
  return [
    ...regions.lines.map((line) => counterRect(text[line.id] ?? "", counterSpot(lineCounterPoint(line.a, line.b), size))),
    ...regions.zones.map((zone) => counterRect(text[zone.id] ?? "", counterSpot(zoneLabelPoint(zone.polygon), size), ZONE_COUNTER_DY)),
  ];
}
