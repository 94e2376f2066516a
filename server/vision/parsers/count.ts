// Reads a people count from a model's answer: "8-12", "between 8 and 12", "about 10", "ten", "no one".
// A number comes only from digits or number words in the answer; an answer without one is null.
export interface CountEstimate {
  count: number;
  /** Both ends of a range, or both null for a single number. */
  min: number | null;
  max: number | null;
}

const MAX_COUNT = 100_000;
const MAX_TEXT = 2000;

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
/** Said instead of a number when nobody is there; read as 0 before number words turn "no one" into "no 1". */
const NONE = /\b(no one|nobody|no people|no persons|no humans|none|not a single (?:person|one)|not any people|zero people)\b/g;

/** Replaces number words ("twenty-one", "a dozen", "a hundred") with digits. */
export function numberWordsToDigits(text: string): string {
  const unit = Object.keys(UNITS).join("|");
  const tens = Object.keys(TENS).join("|");
  return text
    .replace(new RegExp(`\\b(${tens})(?:[- ](${unit}))?\\b`, "g"), (_m, t: string, u?: string) => String(TENS[t]! + (u ? (UNITS[u] ?? 0) : 0)))
    .replace(new RegExp(`\\b(${unit})\\b`, "g"), (word: string) => String(UNITS[word]))
    .replace(/\b(?:a|one) dozen\b/g, "12")
    .replace(/\b(?:a|one) hundred\b/g, "100");
}

const NUMBER = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]*\d)(?![a-z])`;
const RANGE_PATTERNS = [new RegExp(String.raw`\bbetween\s+${NUMBER}\s+and\s+${NUMBER}`), new RegExp(String.raw`(?<![\d.,])${NUMBER}\s*(?:-|to|or|~)\s*${NUMBER}`)];
const SINGLE = new RegExp(String.raw`(?<![\d.,])${NUMBER}`);

export function parseCountAnswer(answer: string): CountEstimate | null {
  const lower = answer
    .slice(0, MAX_TEXT)
    .toLowerCase()
    .replace(/[\u2010-\u2015\u2212]/g, "-");
  const text = numberWordsToDigits(lower.replace(NONE, " 0 "));
  for (const pattern of RANGE_PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const a = toNumber(match[1]!);
    const b = toNumber(match[2]!);
    if (a === null || b === null) continue;
    const [min, max] = a <= b ? [a, b] : [b, a];
    return min === max ? { count: min, min: null, max: null } : { count: Math.round((min + max) / 2), min, max };
  }
  const single = SINGLE.exec(text);
  if (single) {
    const n = toNumber(single[1]!);
    return n === null ? null : { count: n, min: null, max: null };
  }
  return null;
}

function toNumber(digits: string): number | null {
  const n = Number(digits.replace(/,/g, ""));
  return Number.isSafeInteger(n) && n <= MAX_COUNT ? n : null;
}
