// The outline Moondream's segment answers: an SVG path normalised to its bbox (0–1 on both axes). It is parsed
// and checked here, then written out again in absolute form, so only numbers this parser read (never the text
// as received) reach the SVG renderer that makes the mask (./mask.ts) or the studio's preview.

/** How far past 0–1 a coordinate may stray (the model's rounding) before the path is refused; it is clamped. */
export const PATH_TOLERANCE = 0.02;
/** The longest path accepted: a refined outline is a few thousand characters. */
export const MAX_PATH_LENGTH = 100_000;

export class PathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PathError";
  }
}

/** The number of coordinates each command takes (H and V one, Z none). */
const ARITY: Record<string, number> = { M: 2, L: 2, H: 1, V: 1, C: 6, Q: 4, Z: 0 };
const TOKEN = /\s*(?:([MLHVCQZmlhvcqz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))\s*,?/y;

/**
 * Parses and checks a normalised path: M/L/H/V/C/Q/Z, absolute and relative, every point within 0–1
 * (± PATH_TOLERANCE). Returns the same shape in absolute commands with points clamped into 0–1; throws PathError
 * saying what is wrong (empty, outside 0–1, a command it does not know).
 */
export function normalisePath(text: string): string {
  if (text.length > MAX_PATH_LENGTH) throw new PathError(`the outline is longer than ${MAX_PATH_LENGTH} characters`);
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new PathError("the outline is empty");
  const out: string[] = [];
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  let drawn = 0;
  let i = 0;
  let command = "";
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (typeof token === "string") {
      command = token;
      i++;
    } else if (!command || command.toUpperCase() === "Z") {
      throw new PathError("the outline has numbers without a command");
    }
    const upper = command.toUpperCase();
    const relative = command !== upper;
    if (out.length === 0 && upper !== "M") throw new PathError("the outline does not start with M");
    const n = ARITY[upper]!;
    const args = tokens.slice(i, i + n);
    if (args.length < n || args.some((a) => typeof a !== "number")) throw new PathError(`${command} needs ${n} numbers`);
    i += n;
    const nums = args as number[];
    const point = (k: number): [number, number] => [check((relative ? x : 0) + nums[k]!), check((relative ? y : 0) + nums[k + 1]!)];
    switch (upper) {
      case "M": {
        [x, y] = point(0);
        [startX, startY] = [x, y];
        out.push(`M ${fmt(x)} ${fmt(y)}`);
        command = relative ? "l" : "L"; // further pairs after M are lines (SVG's rule)
        break;
      }
      case "L":
        [x, y] = point(0);
        out.push(`L ${fmt(x)} ${fmt(y)}`);
        drawn++;
        break;
      case "H":
        x = check((relative ? x : 0) + nums[0]!);
        out.push(`L ${fmt(x)} ${fmt(y)}`);
        drawn++;
        break;
      case "V":
        y = check((relative ? y : 0) + nums[0]!);
        out.push(`L ${fmt(x)} ${fmt(y)}`);
        drawn++;
        break;
      case "C": {
        const [c1, c2, end] = [point(0), point(2), point(4)];
        [x, y] = end;
        out.push(`C ${[...c1, ...c2, ...end].map(fmt).join(" ")}`);
        drawn++;
        break;
      }
      case "Q": {
        const [c, end] = [point(0), point(2)];
        [x, y] = end;
        out.push(`Q ${[...c, ...end].map(fmt).join(" ")}`);
        drawn++;
        break;
      }
      case "Z":
        [x, y] = [startX, startY];
        out.push("Z");
        break;
    }
  }
  if (drawn < 2) throw new PathError("the outline encloses nothing");
  return out.join(" ");
}

function tokenize(text: string): Array<string | number> {
  const tokens: Array<string | number> = [];
  TOKEN.lastIndex = 0;
  const trimmed = text.trim();
  while (TOKEN.lastIndex < trimmed.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(trimmed);
    if (!match || TOKEN.lastIndex === at) throw new PathError(`the outline has "${trimmed.slice(at, at + 12)}" where a command (M, L, H, V, C, Q, Z) or number belongs`);
    tokens.push(match[1] ?? Number(match[2]));
  }
  return tokens;
}

/** A coordinate within 0–1 (± tolerance), clamped into it. */
function check(value: number): number {
  if (!Number.isFinite(value) || value < -PATH_TOLERANCE || value > 1 + PATH_TOLERANCE) {
    throw new PathError(`the outline goes outside its box (${Number.isFinite(value) ? fmt(value) : value} is not within 0–1)`);
  }
  return Math.min(1, Math.max(0, value));
}

const fmt = (value: number) => String(Math.round(value * 1e5) / 1e5);
