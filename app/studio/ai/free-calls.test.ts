import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api/errors";
import { VISION_PROBLEM } from "../../schemas/vision";
import { DEFAULT_AI_SETTINGS } from "./ai-settings";
import { AiFailureNotices, isSkippedTick } from "./failure-notices";
import { freeCallMilestone, loopCallsPerMinute, type RunningLoops } from "./free-calls";

const none: RunningLoops = {
  captions: false,
  storyMode: false,
  counting: false,
  countingLocal: false,
  scoreboard: false,
  detectionIntervalMs: null,
  assistantIntervalSeconds: null,
};
const settings = { ...DEFAULT_AI_SETTINGS, intervalSeconds: 5, countIntervalSeconds: 10, scoreboardIntervalSeconds: 30, storySpeed: "medium" as const };

describe("loopCallsPerMinute", () => {
  it("adds up what each running loop spends from its interval", () => {
    expect(loopCallsPerMinute(none, settings)).toBe(0);
    expect(loopCallsPerMinute({ ...none, captions: true }, settings)).toBe(12);
    expect(loopCallsPerMinute({ ...none, captions: true, detectionIntervalMs: 2000, scoreboard: true, assistantIntervalSeconds: 60 }, settings)).toBe(12 + 30 + 2 + 1);
  });

  it("counts no plain captions under people counting, and paces a story by its caption length", () => {
    expect(loopCallsPerMinute({ ...none, captions: true, counting: true }, settings)).toBe(6);
    // Counting on the device (a local session) spends nothing, and still hides the plain caption.
    expect(loopCallsPerMinute({ ...none, captions: true, counting: true, countingLocal: true }, settings)).toBe(0);
    // 20 words × 350 ms + 1 s = 8 s a caption.
    expect(loopCallsPerMinute({ ...none, captions: true, storyMode: true }, settings)).toBe(8);
  });
});

describe("freeCallMilestone", () => {
  it("warns once on crossing 80 and says used up once on reaching 100", () => {
    expect(freeCallMilestone(79, 80)).toBe("warning");
    expect(freeCallMilestone(70, 85)).toBe("warning");
    expect(freeCallMilestone(80, 90)).toBeNull();
    expect(freeCallMilestone(95, 100)).toBe("used-up");
    expect(freeCallMilestone(70, 100)).toBe("used-up");
    expect(freeCallMilestone(100, 100)).toBeNull();
  });
});

describe("a skipped loop tick", () => {
  it("is no failure: nothing shown, nothing stored", () => {
    const toasts: unknown[] = [];
    const notices = new AiFailureNotices({ toast: (t) => toasts.push(t), alert: () => {} });
    const busy = new ApiError(429, JSON.stringify({ type: VISION_PROBLEM.busy, title: "Too Many Requests", status: 429, detail: "The shared key is busy; try again in 2 s" }), "x");
    expect(isSkippedTick(busy)).toBe(true);
    notices.report("Caption", busy);
    notices.report("Box detection", busy);
    expect(toasts).toEqual([]);
    expect(notices.store.get().current).toBeNull();
  });
});
