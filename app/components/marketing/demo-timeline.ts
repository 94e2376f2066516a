// The lab and wildlife demos' state machine (spec §4) as a schedule of states, so the component only runs
// timers and tests can check the timings without a browser.
export type DemoPhase = "idle" | "detecting" | "labeling" | "story" | "captured";

export interface DemoState {
  phase: DemoPhase;
  /** How many detection boxes are shown. */
  boxes: number;
  /** How many words of the story caption are typed. */
  words: number;
}

export const DEMO_TIMING = {
  /** The scan line sweeps for 1 s before labels appear. */
  scanMs: 1000,
  /** The caption starts 800 ms after the last box. */
  storyDelayMs: 800,
  /** The caption types one word every 300 ms. */
  wordMs: 300,
  /** The capture badge shows 1.5 s after the caption is complete. */
  captureDelayMs: 1500,
} as const;

export const IDLE: DemoState = { phase: "idle", boxes: 0, words: 0 };

export interface DemoStep {
  /** Milliseconds after the demo came into view. */
  at: number;
  state: DemoState;
}

/** Every state change from the moment the demo is seen: detecting, one box at a time, the caption word by word, captured. */
export function demoTimeline(options: { boxCount: number; boxIntervalMs: number; wordCount: number }): DemoStep[] {
  const { boxCount, boxIntervalMs, wordCount } = options;
  const steps: DemoStep[] = [{ at: 0, state: { phase: "detecting", boxes: 0, words: 0 } }];
  // The first box appears as labeling starts, each next one an interval later.
  for (let box = 1; box <= boxCount; box++) {
    steps.push({ at: DEMO_TIMING.scanMs + (box - 1) * boxIntervalMs, state: { phase: "labeling", boxes: box, words: 0 } });
  }
  const storyStart = steps.at(-1)!.at + DEMO_TIMING.storyDelayMs;
  steps.push({ at: storyStart, state: { phase: "story", boxes: boxCount, words: 0 } });
  for (let word = 1; word <= wordCount; word++) {
    steps.push({ at: storyStart + word * DEMO_TIMING.wordMs, state: { phase: "story", boxes: boxCount, words: word } });
  }
  steps.push({ at: steps.at(-1)!.at + DEMO_TIMING.captureDelayMs, state: { phase: "captured", boxes: boxCount, words: wordCount } });
  return steps;
}

export function finalState(options: { boxCount: number; wordCount: number }): DemoState {
  return { phase: "captured", boxes: options.boxCount, words: options.wordCount };
}
