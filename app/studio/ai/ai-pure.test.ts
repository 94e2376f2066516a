// The AI tab's pure rules: story timing and stored-settings repair (the modes' rules: modes.test.ts).
import { describe, expect, it } from "vitest";
import { DEFAULT_AI_SETTINGS, sanitizeAiSettings } from "./ai-settings";
import { captionWords, storyNextDelayMs } from "./story-timing";

describe("storyNextDelayMs", () => {
  it("is words × word delay + 1000 ms at each speed", () => {
    const ten = "one two three four five six seven eight nine ten";
    expect(storyNextDelayMs(ten, "slow")).toBe(10 * 500 + 1000);
    expect(storyNextDelayMs(ten, "medium")).toBe(10 * 350 + 1000);
    expect(storyNextDelayMs(ten, "fast")).toBe(10 * 200 + 1000);
  });
  it("never goes under 2000 ms", () => {
    expect(storyNextDelayMs("Hi there", "fast")).toBe(2000);
    expect(storyNextDelayMs("", "slow")).toBe(2000);
    // 3 × 350 + 1000 = 2050: just over the floor.
    expect(storyNextDelayMs("a b c", "medium")).toBe(2050);
  });
  it("counts words however they are spaced", () => {
    expect(captionWords("  A  man\nwalks\tin. ")).toEqual(["A", "man", "walks", "in."]);
  });
});

describe("sanitizeAiSettings", () => {
  it("defaults to the spec's values", () => {
    expect(sanitizeAiSettings(null)).toEqual({
      intervalSeconds: 5,
      storySpeed: "medium",
      sport: "football",
      scoreboardIntervalSeconds: 10,
      countIntervalSeconds: 5,
      countUseRange: false,
    });
    expect(sanitizeAiSettings("garbage")).toEqual(DEFAULT_AI_SETTINGS);
  });
  it("keeps valid choices and repairs the rest", () => {
    expect(sanitizeAiSettings({ intervalSeconds: 30, storySpeed: "fast", sport: "soccer", scoreboardIntervalSeconds: 7, countIntervalSeconds: 60, countUseRange: true })).toEqual({
      intervalSeconds: 30,
      storySpeed: "fast",
      sport: "soccer",
      scoreboardIntervalSeconds: 7,
      countIntervalSeconds: 60,
      countUseRange: true,
    });
    expect(sanitizeAiSettings({ intervalSeconds: 4, storySpeed: "warp", sport: "chess", scoreboardIntervalSeconds: 0, countIntervalSeconds: 600, countUseRange: "yes" })).toEqual({
      ...DEFAULT_AI_SETTINGS,
      scoreboardIntervalSeconds: 1,
      countIntervalSeconds: 60,
    });
    expect(sanitizeAiSettings({ scoreboardIntervalSeconds: 2.6, countIntervalSeconds: Number.NaN })).toMatchObject({ scoreboardIntervalSeconds: 3, countIntervalSeconds: 5 });
  });
});
