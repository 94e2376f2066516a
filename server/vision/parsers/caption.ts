// Turns a model's caption answer into the plain prose the studio shows over the picture and records in a
// story: a JSON answer gives its caption field, markdown is reduced to its text, whitespace is collapsed and
// the length capped. An answer with nothing to show (empty, a placeholder, a refusal) becomes "", which the
// caption API returns as "nothing new" (the studio keeps its last caption and records nothing).
import { CAPTION_MAX_LENGTH } from "#app/schemas/vision";
import { extractJsonObject, isObject, normaliseKey, type JsonObject } from "./json-object";

// CAPTION_MAX_LENGTH (500, ellipsis included): the story prompt asks for two or three sentences, about
// 200–400 characters; 500 leaves room for long ones, while a longer answer is a model running on, which
// would take over half a minute to reveal word by word at the medium story speed.

/** Answers longer than this are not what we asked for: only their start is read. */
const MAX_INPUT = 20_000;

/** Fields a JSON answer may carry its caption in, most specific first (keys compared normalised). */
const CAPTION_KEYS = ["caption", "storycaption", "text", "description", "story", "narrative", "narration", "answer", "content", "summary", "scene"];

/** A heading that only names what follows. */
const LABEL_ONLY = /^(?:(?:story|photo|narrative|scene)\s+)?(?:caption|description|narrative|story)s?:?$/i;
const PLACEHOLDER = /^(?:n\/?a|none|null|nil|nothing|no caption|empty|undefined)\.?$/i;
/** An answer that opens by declining: an apology or "I can't…" about the task, or the stock "As an AI". */
const REFUSAL =
  /^(?:(?:i['’]?m|i am) sorry|sorry|i apologi[sz]e|unfortunately)\b[^.!?]*?\b(?:can['’]?t|cannot|can not|unable|not able|won['’]?t|not possible|no image|do(?:n['’]?t| not) see)|^(?:i (?:can['’]?t|cannot|can not|won['’]?t|am unable|am not able|do(?:n['’]?t| not) see)|i['’]m (?:unable|not able)|as an ai\b)/i;

export function normaliseCaption(answer: string): string {
  const raw = answer.slice(0, MAX_INPUT);
  const text = looksLikeJson(raw) ? (jsonCaption(raw) ?? "") : raw;
  const prose = withoutRefusal(unquote(withoutLabel(collapse(stripMarkdown(withoutPreamble(text))))));
  // No letter or digit (a stray "**", "—", "…"): nothing to show either.
  if (PLACEHOLDER.test(prose) || !/[\p{L}\p{N}]/u.test(prose)) return "";
  return capLength(prose, CAPTION_MAX_LENGTH);
}

/** An answer that is JSON, bare or in a ``` fence (prose that merely contains a brace is not). */
function looksLikeJson(text: string): boolean {
  return /^\s*[[{]/.test(text) || /```[\w-]*\s*[[{]/.test(text);
}

function jsonCaption(text: string): string | null {
  const object = extractJsonObject(text);
  if (object) return captionField(object, 0);
  // A list of sentences.
  const list = /\[[\s\S]*\]/.exec(text)?.[0];
  try {
    const value: unknown = list ? JSON.parse(list) : null;
    return textOf(value);
  } catch {
    return null;
  }
}

function captionField(object: JsonObject, depth: number): string | null {
  const entries = Object.entries(object);
  for (const wanted of CAPTION_KEYS) {
    const text = textOf(entries.find(([key]) => normaliseKey(key) === wanted)?.[1]);
    if (text) return text;
  }
  // {"result": {"caption": …}}
  for (const [, value] of entries) {
    const nested = isObject(value) && depth < 2 ? captionField(value, depth + 1) : null;
    if (nested) return nested;
  }
  // A key of the model's own invention ({"scene_description": …}): its longest text.
  const texts = entries.map(([, value]) => textOf(value)).filter((value): value is string => Boolean(value));
  return texts.sort((a, b) => b.length - a.length)[0] ?? null;
}

function textOf(value: unknown): string | null {
  if (typeof value === "string") return value.trim() || null;
  if (Array.isArray(value) && value.length && value.every((item) => typeof item === "string")) return value.join(" ").trim() || null;
  return null;
}

/** "Sure! Here's a vivid caption for your story:" on a line of its own, before the caption itself. */
function withoutPreamble(text: string): string {
  return text.replace(/^\s*(?:(?:sure|certainly|of course|okay|ok)\b[!,.]?\s*)?here(?:['’]s| is| are)\b[^\n]*:[ \t]*\n/i, "");
}

function stripMarkdown(text: string): string {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .replace(/```[\w-]*[ \t]*/g, "") // fence markers; what they fence stays
    .split("\n");
  const kept: string[] = [];
  for (const line of lines) {
    if (/^\s*([-*_])(?:\s*\1){2,}\s*$/.test(line)) continue; // a horizontal rule
    const unquoted = line.replace(/^\s*(?:>\s?)+/, "");
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(unquoted);
    if (heading && LABEL_ONLY.test(inline(heading[1]!).trim())) continue; // "## Caption"
    const block = heading ?? /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(.*)$/.exec(unquoted);
    // Headings and list items become sentences of their own, not run into the next line.
    kept.push(block ? asSentence(inline(block[1]!)) : inline(unquoted));
  }
  return kept.join("\n");
}

function inline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1") // images → their alt text
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1") // links → their text
    .replace(/<(https?:\/\/[^>\s]+)>/g, "$1")
    .replace(/<\/?[a-z][^>]*>/gi, " ") // HTML tags
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])/g, "$1$2")
    .replace(/(^|[^\w])_(?=\S)([^_]*?\S)_(?!\w)/g, "$1$2")
    .replace(/~~(.+?)~~/g, "$1")
    .replace(/\*\*|__/g, "");
}

function asSentence(text: string): string {
  const trimmed = text.trim();
  return !trimmed || /[.!?…:;"”’')]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f\u200b\ufeff]+/g;

function collapse(text: string): string {
  return text.replace(INVISIBLE, " ").replace(/\s+/g, " ").trim();
}

/** "Caption: …", "Story caption – …" */
function withoutLabel(text: string): string {
  return text.replace(/^(?:(?:story|photo|narrative|scene)\s+)?(?:caption|description|narrative|story)\s*(?::|\s[-–—])\s*/i, "");
}

const QUOTE_PAIRS: Record<string, string> = { '"': '"', "“": "”", "'": "'", "‘": "’" };

/** A caption the model put in quotes (but not one that merely starts and ends with a quotation). */
function unquote(text: string): string {
  const close = QUOTE_PAIRS[text[0] ?? ""];
  if (!close || text.length < 3 || !text.endsWith(close)) return text;
  const inner = text.slice(1, -1);
  return inner.includes(text[0]!) || inner.includes(close) ? text : inner.trim();
}

/**
 * An answer that opens with a refusal is not a caption: its refusing sentences are dropped, and what is left
 * (a description that followed them) is kept. A refusal alone leaves nothing.
 */
function withoutRefusal(text: string): string {
  let rest = text;
  while (REFUSAL.test(rest)) {
    const end = rest.search(/[.!?…](?:\s|$)/);
    rest = end < 0 ? "" : rest.slice(end + 1).trim();
  }
  return rest;
}

/** At most `max` characters, cut at a word boundary with an ellipsis. */
function capLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(" ", max - 1);
  const cut = space > max / 2 ? text.slice(0, space) : text.slice(0, max - 1);
  return `${cut.replace(/[\s,;:.\-–—]+$/, "")}…`;
}
