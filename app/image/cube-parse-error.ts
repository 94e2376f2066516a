// The .cube parser's error: `message` is one of the spec's two texts, or the real reason when the file
// is valid but larger than supported; `detail` says what exactly was wrong.
import { LUT_1D_MAX_SIZE, LUT_3D_MAX_SIZE } from "./constants";

export const CUBE_PARSE_FAILED = "Failed to parse LUT file";

/** The table a count mismatch talks about: a cube, a 1D LUT, or a shaper followed by a cube. */
export interface DeclaredTables {
  kind: "3d" | "1d";
  size: number;
  shaperSize?: number;
}

export function countMismatchMessage({ kind, size, shaperSize = 0 }: DeclaredTables, values: number): string {
  const expected = (kind === "3d" ? size ** 3 + shaperSize : size) * 3;
  const cube = `${size}x${size}x${size} LUT`;
  const table = kind === "1d" ? `${size}-point 1D LUT` : shaperSize ? `${shaperSize}-point shaper and ${cube}` : cube;
  return `Invalid LUT data: expected ${expected} values for ${table}, got ${values}`;
}

/** A size keyword beyond what the app supports (a whole number: smaller or broken sizes fail as malformed). */
export function tooLargeMessage(kind: "3d" | "1d", size: number): string {
  return kind === "3d" ? `LUT is ${size}³; the largest supported is ${LUT_3D_MAX_SIZE}³` : `LUT is a ${size}-point 1D LUT; the largest supported has ${LUT_1D_MAX_SIZE} points`;
}

export class CubeParseError extends Error {
  override name = "CubeParseError";

  constructor(
    message: string,
    /** For logs and developers; people are shown `message`. */
    readonly detail: string,
  ) {
    super(message);
  }
}
