// The camera assistant's settings (localStorage "cameraAssistant") and how its advice is shown (spec §2):
// each section is a string — tip = its first sentence, or its first 50 characters; detail = the whole
// text — or {tip, detail}; sections lacking both are hidden.
import { ADVICE_SECTIONS, type Advice, type AdviceSection, type Recommendations } from "../../schemas/vision";

export const TARGET_LOOKS = ["Natural", "Cinematic", "Live Music", "Talk Show", "Podcast", "News/Broadcast", "Corporate", "Custom"] as const;
export type TargetLook = (typeof TARGET_LOOKS)[number];
export const ASSISTANT_STORAGE_KEY = "cameraAssistant";
export const ASSISTANT_INTERVAL_S = { min: 10, max: 300, default: 30 };

export interface AssistantSettings {
  cameraType: string;
  targetLook: TargetLook;
  customLook: string;
  intent: string;
  intervalSeconds: number;
}

export const DEFAULT_ASSISTANT_SETTINGS: AssistantSettings = { cameraType: "", targetLook: "Natural", customLook: "", intent: "", intervalSeconds: ASSISTANT_INTERVAL_S.default };

const str = (value: unknown, max: number) => (typeof value === "string" ? value.slice(0, max) : "");

export function sanitizeAssistantSettings(raw: unknown): AssistantSettings {
  const v = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const interval = typeof v.intervalSeconds === "number" && Number.isFinite(v.intervalSeconds) ? Math.round(v.intervalSeconds) : ASSISTANT_INTERVAL_S.default;
  return {
    cameraType: str(v.cameraType, 100),
    targetLook: TARGET_LOOKS.includes(v.targetLook as TargetLook) ? (v.targetLook as TargetLook) : "Natural",
    customLook: str(v.customLook, 200),
    intent: str(v.intent, 500),
    intervalSeconds: Math.min(ASSISTANT_INTERVAL_S.max, Math.max(ASSISTANT_INTERVAL_S.min, interval)),
  };
}

/** The look sent to the server: the custom text when the look is Custom; "" when none is given. */
export function effectiveLook(settings: Pick<AssistantSettings, "targetLook" | "customLook">): string {
  return settings.targetLook === "Custom" ? settings.customLook.trim() : settings.targetLook;
}

export const SECTION_LABELS: Record<AdviceSection, string> = {
  exposure: "Exposure",
  whiteBalance: "White Balance",
  focus: "Focus",
  lighting: "Lighting",
  overall: "Overall",
};

export interface AdviceEntry {
  section: AdviceSection;
  label: string;
  tip: string;
  detail: string;
}

const TIP_CHARS = 50;

/** Tip and detail of one section, or null when it has neither. */
export function adviceTipDetail(advice: Advice | undefined): { tip: string; detail: string } | null {
  if (advice == null) return null;
  if (typeof advice === "string") {
    const detail = advice.trim();
    if (!detail) return null;
    const sentence = /^.*?[.!?](?=\s|$)/s.exec(detail)?.[0];
    return { tip: sentence ?? detail.slice(0, TIP_CHARS), detail };
  }
  const tip = advice.tip?.trim() ?? "";
  const detail = advice.detail?.trim() ?? "";
  if (!tip && !detail) return null;
  return { tip: tip || detail.slice(0, TIP_CHARS), detail };
}

export function adviceEntries(recommendations: Partial<Recommendations> | null | undefined): AdviceEntry[] {
  if (!recommendations) return [];
  const entries: AdviceEntry[] = [];
  for (const section of ADVICE_SECTIONS) {
    const parts = adviceTipDetail(recommendations[section]);
    if (parts) entries.push({ section, label: SECTION_LABELS[section], ...parts });
  }
  return entries;
}

/** The raw base64 the assistant call takes (spec §7: without the data-URL prefix). */
export function stripDataUrl(dataUrl: string): string {
  const comma = dataUrl.indexOf(",");
  return dataUrl.startsWith("data:") && comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl;
}
