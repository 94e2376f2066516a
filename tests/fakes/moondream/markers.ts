// Finds the test image's markers: blobs of pure red, green or blue. The fake's answers (boxes, points,
// counts, scores) come from them, so a test knows the right answer from the picture it drew.
import sharp from "sharp";

export type MarkerColor = "red" | "green" | "blue";

export interface Marker {
  color: MarkerColor;
  /** Fractions of the frame, origin top-left. */
  x_min: number;
  y_min: number;
  x_max: number;
  y_max: number;
}

/** Markers are found on a copy at most this wide: plenty for test markers, cheap for 4K frames. */
const ANALYSIS_WIDTH = 320;

function colorOf(r: number, g: number, b: number): MarkerColor | null {
  if (r > 160 && g < 90 && b < 90) return "red";
  if (g > 160 && r < 90 && b < 90) return "green";
  if (b > 160 && r < 90 && g < 90) return "blue";
  return null;
}

export async function findMarkers(image: Buffer): Promise<Marker[]> {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .resize({ width: ANALYSIS_WIDTH, withoutEnlargement: true, kernel: "nearest" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const colors: Array<MarkerColor | null> = new Array(width * height);
  for (let i = 0; i < width * height; i++) colors[i] = colorOf(data[i * 3]!, data[i * 3 + 1]!, data[i * 3 + 2]!);
  const seen = new Uint8Array(width * height);
  const markers: Marker[] = [];
  for (let start = 0; start < colors.length; start++) {
    const color = colors[start];
    if (!color || seen[start]) continue;
    // Flood fill one blob (4-neighbourhood).
    let minX = width,
      minY = height,
      maxX = 0,
      maxY = 0,
      size = 0;
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      size++;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, y > 0 ? i - width : -1, y < height - 1 ? i + width : -1]) {
        if (j >= 0 && !seen[j] && colors[j] === color) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    if (size < 3) continue; // compression speckle, not a marker
    const round = (v: number) => Math.round(v * 1000) / 1000;
    markers.push({ color, x_min: round(minX / width), y_min: round(minY / height), x_max: round((maxX + 1) / width), y_max: round((maxY + 1) / height) });
  }
  return markers.sort((a, b) => a.y_min - b.y_min || a.x_min - b.x_min);
}
