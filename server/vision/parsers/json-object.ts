// Finds the JSON object in what a language model answered: inside a ``` fence, or the first {...} in prose,
// repaired (jsonrepair) when it has single quotes, trailing commas, Python literals or was cut off.
import { jsonrepair } from "jsonrepair";

/** Answers longer than this are not model output we asked for; cap the work spent on them. */
const MAX_TEXT = 20_000;

export type JsonObject = Record<string, unknown>;

export function extractJsonObject(text: string): JsonObject | null {
  const input = text.slice(0, MAX_TEXT);
  for (const candidate of candidates(input)) {
    const value = parseLoosely(candidate);
    const object = Array.isArray(value) ? value.find(isObject) : value;
    if (isObject(object)) return object;
  }
  return null;
}

function* candidates(text: string): Generator<string> {
  for (const fence of text.matchAll(/```[a-zA-Z0-9]*\s*([\s\S]*?)(?:```|$)/g)) {
    const body = fence[1]!;
    const start = body.search(/[{[]/);
    if (start >= 0) yield balanced(body, start);
  }
  const start = text.indexOf("{");
  if (start >= 0) yield balanced(text, start);
}

/** From an opening brace to its matching close (strings respected), or to the end when it never closes. */
function balanced(text: string, start: number): string {
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"') {
      quote = ch;
    } else if (ch === "{" || ch === "[") {
      depth++;
    } else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return text.slice(start);
}

function parseLoosely(candidate: string): unknown {
  try {
    return JSON.parse(candidate);
  } catch {
    try {
      return JSON.parse(jsonrepair(candidate));
    } catch {
      return undefined;
    }
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** "home_team", "homeTeam" and "Home Team" all become "hometeam". */
export function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;

/** A short, clean text from a model's field: trimmed, control characters gone, placeholders like "N/A" dropped. */
export function cleanText(value: unknown, max: number): string | null {
  if (typeof value === "number" && Number.isFinite(value)) value = String(value);
  if (typeof value !== "string") return null;
  const text = value.replace(CONTROL_CHARACTERS, " ").replace(/\s+/g, " ").trim();
  if (!text || /^(null|none|n\/?a|unknown|not visible|not available|-+|\?+)$/i.test(text)) return null;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * `Key: value` lines (bullets, bold and numbering allowed), for models that answer in prose instead of JSON.
 * Later lines without a key continue the previous value.
 */
export function keyValueLines(text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const line of text.slice(0, MAX_TEXT).split(/\r?\n/)) {
    const match = /^\s*(?:[-*•]|\d+[.)])?\s*(?:\*\*|__)?([A-Za-z][A-Za-z /_-]{0,30}?)(?:\*\*|__)?\s*(?:[:=]|\s[-–—]\s)\s*(?:\*\*|__)?\s*(.*?)\s*$/.exec(line);
    if (match) pairs.push([match[1]!, match[2]!]);
    else if (pairs.length && line.trim()) pairs[pairs.length - 1]![1] += ` ${line.trim()}`;
  }
  return pairs;
}
