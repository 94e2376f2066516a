// The AI tab's settings (spec §9 AI) and their limits, kept in localStorage between visits. Only the
// choices persist: switches that start paid loops or server records (AI, story, counting, scoreboard)
// start off after a reload, so a reload never spends quota or opens a story by itself.
import type { Sport } from "../../schemas/vision";
import { loadJson, saveJson } from "../settings";
import { createStore, type Store } from "../store";

export const AI_INTERVALS_S = [2, 3, 5, 10, 15, 30, 60] as const;
export const STORY_SPEEDS = ["slow", "medium", "fast"] as const;
export type StorySpeed = (typeof STORY_SPEEDS)[number];
/** How long each word of a story caption takes to appear. */
export const STORY_WORD_DELAY_MS: Record<StorySpeed, number> = { slow: 500, medium: 350, fast: 200 };
export const SPORTS: ReadonlyArray<{ value: Sport; label: string }> = [
  { value: "football", label: "Football" },
  { value: "soccer", label: "Soccer" },
  { value: "basketball", label: "Basketball" },
];
export const SCOREBOARD_INTERVAL_S = { min: 1, max: 30 };
export const COUNT_INTERVAL_S = { min: 2, max: 60 };

export interface AiSettings {
  intervalSeconds: number;
  storySpeed: StorySpeed;
  sport: Sport;
  scoreboardIntervalSeconds: number;
  countIntervalSeconds: number;
  countUseRange: boolean;
}

export const DEFAULT_AI_SETTINGS: AiSettings = {
  intervalSeconds: 5,
  storySpeed: "medium",
  sport: "football",
  scoreboardIntervalSeconds: 10,
  countIntervalSeconds: 5,
  countUseRange: false,
};

export const AI_SETTINGS_KEY = "aiSettings";

const wholeIn = (value: unknown, range: { min: number; max: number }, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) ? Math.min(range.max, Math.max(range.min, Math.round(value))) : fallback;

/** Reads stored settings, repairing anything out of range or unknown rather than trusting it. */
export function sanitizeAiSettings(raw: unknown): AiSettings {
  const value = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const d = DEFAULT_AI_SETTINGS;
  const interval = value.intervalSeconds;
  return {
    intervalSeconds: (AI_INTERVALS_S as readonly unknown[]).includes(interval) ? (interval as number) : d.intervalSeconds,
    storySpeed: (STORY_SPEEDS as readonly unknown[]).includes(value.storySpeed) ? (value.storySpeed as StorySpeed) : d.storySpeed,
    sport: SPORTS.some((s) => s.value === value.sport) ? (value.sport as Sport) : d.sport,
    scoreboardIntervalSeconds: wholeIn(value.scoreboardIntervalSeconds, SCOREBOARD_INTERVAL_S, d.scoreboardIntervalSeconds),
    countIntervalSeconds: wholeIn(value.countIntervalSeconds, COUNT_INTERVAL_S, d.countIntervalSeconds),
    countUseRange: typeof value.countUseRange === "boolean" ? value.countUseRange : d.countUseRange,
  };
}

export class AiSettingsStore {
  readonly store: Store<AiSettings>;

  constructor() {
    this.store = createStore(sanitizeAiSettings(typeof localStorage === "undefined" ? null : loadJson(AI_SETTINGS_KEY)));
  }

  get(): AiSettings {
    return this.store.get();
  }

  update(patch: Partial<AiSettings>): void {
    const next = sanitizeAiSettings({ ...this.store.get(), ...patch });
    this.store.set(next);
    saveJson(AI_SETTINGS_KEY, next);
  }
}
