// The user's Moondream calls per feature (GET /api/moondream/usage) for the AI tab's "AI calls" panel: loaded
// when the panel shows and refreshed after AI calls (coalesced, at most every few seconds), so a user sees what
// each feature spends and what local vision saves.
import { errorDetail } from "../../lib/api/errors";
import { visionApi } from "../../lib/api/vision";
import { AI_FEATURES, type AiFeature, type VisionUsage } from "../../schemas/vision";
import { createStore } from "../store";

/** Refreshing after calls waits at least this long between requests. */
export const USAGE_REFRESH_GAP_MS = 4000;

export const AI_FEATURE_LABELS: Record<AiFeature, string> = {
  captions: "Captions",
  story: "Story captions",
  points: "Point detection",
  detection: "Box detection",
  people_count: "People counting",
  scoreboard: "Scoreboard reading",
  shot_advice: "Camera assistant",
  event_description: "Event descriptions",
  monitors: "Monitors (server)",
  segmentation: "Segmentation (gallery edits)",
};

export interface FeatureCalls {
  feature: AiFeature;
  label: string;
  thisHour: number;
  last24h: number;
}

/** One row per feature that made calls in the last 24 hours, in AI_FEATURES order. */
export function featureCalls(usage: VisionUsage): FeatureCalls[] {
  return AI_FEATURES.flatMap((feature) => {
    const last24h = usage.totals.find((t) => t.feature === feature)?.calls ?? 0;
    if (last24h === 0) return [];
    const thisHour = usage.hours.find((h) => h.feature === feature && h.hour === usage.currentHour)?.calls ?? 0;
    return [{ feature, label: AI_FEATURE_LABELS[feature], thisHour, last24h }];
  });
}

export class CallUsage {
  readonly store = createStore<{ usage: VisionUsage | null }>({ usage: null });
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastRefresh = 0;
  private disposed = false;

  async refresh(): Promise<void> {
    this.lastRefresh = Date.now();
    try {
      const usage = await visionApi.usage();
      if (!this.disposed) this.store.set({ usage });
    } catch (error) {
      console.warn("Could not load the AI calls per feature:", errorDetail(error, "unknown error"));
    }
  }

  /** An AI call was answered: refresh soon, coalescing a busy loop's calls. */
  noteCall(): void {
    if (this.disposed || this.timer) return;
    const wait = Math.max(0, this.lastRefresh + USAGE_REFRESH_GAP_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.refresh();
    }, wait);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
