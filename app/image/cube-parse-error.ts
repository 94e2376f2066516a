// The .cube parser's error: `message` is one of the spec's two texts; `detail` says what exactly was wrong.

export const CUBE_PARSE_FAILED = "Failed to parse LUT file";

export function countMismatchMessage(kind: "3d" | "1d", size: number, values: number): string {
  const expected = kind === "3d" ? size ** 3 * 3 : size * 3;
  const table = kind === "3d" ? `${size}x${size}x${size} LUT` : `${size}-point 1D LUT`;
  return `Invalid LUT data: expected ${expected} values for ${table}, got ${values}`;
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

