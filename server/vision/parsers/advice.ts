// Reads the camera assistant's advice: five sections, each a plain string or {tip, detail}. Models answer
// JSON (fenced, nested, renamed) or headed prose; sections not found are null, and advice that fits no
// section is kept as the overall advice rather than thrown away. Only text from the answer is used.
import { ADVICE_SECTIONS, type Advice, type AdviceSection, type Recommendations } from "#app/schemas/vision";
import { cleanText, extractJsonObject, isObject, keyValueLines, normaliseKey, type JsonObject } from "./json-object";

const TIP_MAX = 200;
const DETAIL_MAX = 2000;

const SECTION_OF_KEY: Record<string, AdviceSection> = {
  exposure: "exposure",
  brightness: "exposure",
  iso: "exposure",
  aperture: "exposure",
  shutter: "exposure",
  whitebalance: "whiteBalance",
  wb: "whiteBalance",
  white: "whiteBalance",
  color: "whiteBalance",
  colour: "whiteBalance",
  colortemperature: "whiteBalance",
  focus: "focus",
  sharpness: "focus",
  lighting: "lighting",
  light: "lighting",
  lights: "lighting",
  overall: "overall",
  summary: "overall",
  general: "overall",
  overallassessment: "overall",
  recommendation: "overall",
  verdict: "overall",
};
const TIP_KEYS = ["tip", "summary", "short", "title", "headline", "action"];
const DETAIL_KEYS = ["detail", "details", "explanation", "description", "advice", "reason", "why", "text"];

export const EMPTY_RECOMMENDATIONS: Recommendations = { exposure: null, whiteBalance: null, focus: null, lighting: null, overall: null };

export function parseAdvice(text: string): Recommendations {
  const json = extractJsonObject(text);
  const result = json ? fromObject(unwrap(json)) : fromProse(text);
  if (ADVICE_SECTIONS.every((section) => result[section] === null)) {
    result.overall = cleanText(text.replace(/```[a-z]*|```/gi, ""), DETAIL_MAX); // advice in no known shape: keep it whole
  }
  return result;
}

function unwrap(object: JsonObject): JsonObject {
  const known = Object.keys(object).some((key) => sectionOf(key));
  if (known) return object;
  return Object.values(object).find(isObject) ?? object;
}

/** "whiteBalance", "White Balance Advice", "focus_tips" → their section. */
function sectionOf(key: string): AdviceSection | undefined {
  const normal = normaliseKey(key);
  return SECTION_OF_KEY[normal] ?? SECTION_OF_KEY[normal.replace(/(advice|tips?|recommendations?|settings?|notes?)$/, "")];
}

function fromObject(object: JsonObject): Recommendations {
  const result = { ...EMPTY_RECOMMENDATIONS };
  for (const [key, value] of Object.entries(object)) {
    const section = sectionOf(key);
    if (section && result[section] === null) result[section] = advice(value);
  }
  return result;
}

function fromProse(text: string): Recommendations {
  const result = { ...EMPTY_RECOMMENDATIONS };
  for (const [key, value] of keyValueLines(text)) {
    const section = sectionOf(key);
    if (section && result[section] === null) result[section] = advice(value);
  }
  return result;
}

function advice(value: unknown): Advice {
  if (Array.isArray(value)) return cleanText(value.filter((item) => typeof item === "string").join(" "), DETAIL_MAX);
  if (!isObject(value)) return cleanText(value, DETAIL_MAX);
  const entries = Object.fromEntries(Object.entries(value).map(([k, v]) => [normaliseKey(k), v]));
  const tip = cleanText(
    TIP_KEYS.map((k) => entries[k]).find((v) => typeof v === "string"),
    TIP_MAX,
  );
  const detail = cleanText(
    DETAIL_KEYS.map((k) => entries[k]).find((v) => typeof v === "string"),
    DETAIL_MAX,
  );
  if (tip && detail) return { tip, detail };
  return tip ?? detail;
}
