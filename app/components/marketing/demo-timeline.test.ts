import { describe, expect, it } from "vitest";
import { demoTimeline, finalState } from "./demo-timeline";

describe("demoTimeline", () => {
  it("scans for 1 s, shows the lab's three boxes 600 ms apart, types after 800 ms at 300 ms a word, captures 1.5 s later", () => {
    const steps = demoTimeline({ boxCount: 3, boxIntervalMs: 600, wordCount: 4 });
    expect(steps.map((step) => [step.at, step.state.phase, step.state.boxes, step.state.words])).toEqual([
      [0, "detecting", 0, 0],
      [1000, "labeling", 1, 0],
      [1600, "labeling", 2, 0],
      [2200, "labeling", 3, 0],
      [3000, "story", 3, 0],
      [3300, "story", 3, 1],
      [3600, "story", 3, 2],
      [3900, "story", 3, 3],
      [4200, "story", 3, 4],
      [5700, "captured", 3, 4],
    ]);
  });

  it("uses the wildlife demo's 700 ms box interval and ends in the final state", () => {
    const steps = demoTimeline({ boxCount: 2, boxIntervalMs: 700, wordCount: 1 });
    expect(steps.filter((step) => step.state.phase === "labeling").map((step) => step.at)).toEqual([1000, 1700]);
    expect(steps.at(-1)!.state).toEqual(finalState({ boxCount: 2, wordCount: 1 }));
  });

  it("never goes back in time", () => {
    const steps = demoTimeline({ boxCount: 3, boxIntervalMs: 600, wordCount: 12 });
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.at).toBeGreaterThanOrEqual(steps[i - 1]!.at);
  });
});
