// Where the picture really is inside its element (object-fit: contain), and clicks as -1…1 positions.
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The rectangle a `contain`-fitted media of size mediaW×mediaH occupies inside a box of boxW×boxH. */
export function containRect(boxW: number, boxH: number, mediaW: number, mediaH: number): Rect {
  if (!boxW || !boxH || !mediaW || !mediaH) return { x: 0, y: 0, width: boxW, height: boxH };
  const scale = Math.min(boxW / mediaW, boxH / mediaH);
  const width = mediaW * scale;
  const height = mediaH * scale;
  return { x: (boxW - width) / 2, y: (boxH - height) / 2, width, height };
}

/** A click at (px, py) in box coordinates as a normalised position from -1 to 1 on each axis, or null outside the picture. */
export function normalisedPosition(px: number, py: number, rect: Rect): { x: number; y: number } | null {
  const u = (px - rect.x) / rect.width;
  const v = (py - rect.y) / rect.height;
  if (u < 0 || u > 1 || v < 0 || v > 1) return null;
  return { x: u * 2 - 1, y: v * 2 - 1 };
}
