// What the AI loops spend of the shared key's free calls: the calls per minute the running loops will make
// (from their intervals, shown next to the AI switches), and the two moments a person is told about it —
// 80 used (a warning) and all used (the loops stop, with one message saying how to go on).
import { FREE_SHARED_CALLS } from "../../schemas/vision";
import { STORY_WORD_DELAY_MS, type AiSettings } from "./ai-settings";
import { STORY_EXTRA_MS, STORY_MIN_DELAY_MS } from "./story-timing";

/** The warning comes once this many free calls are used. */
export const FREE_CALLS_WARNING_AT = 80;
/** Story captions are paced by their length; a typical one runs about this many words. */
const TYPICAL_STORY_WORDS = 20;

export interface RunningLoops {
  captions: boolean;
  storyMode: boolean;
  counting: boolean;
  /** People counting samples the on-device count (a local session): no calls. */
  countingLocal: boolean;
  scoreboard: boolean;
  /** The running detection loop's interval in ms, or null. */
  detectionIntervalMs: number | null;
  /** The assistant's interval mode. */
  assistantIntervalSeconds: number | null;
}

/** Calls per minute the running loops make (a call's own duration is left out: an upper estimate). */
export function loopCallsPerMinute(
  loops: RunningLoops,
  settings: Pick<AiSettings, "intervalSeconds" | "storySpeed" | "countIntervalSeconds" | "scoreboardIntervalSeconds">,
): number {
  let perMinute = 0;
  if (loops.storyMode) {
    perMinute += 60_000 / Math.max(STORY_MIN_DELAY_MS, TYPICAL_STORY_WORDS * STORY_WORD_DELAY_MS[settings.storySpeed] + STORY_EXTRA_MS);
  } else if (loops.captions && !loops.counting) {
    perMinute += 60 / settings.intervalSeconds; // under the counting overlay the plain caption makes no calls
  }
  if (loops.counting && !loops.countingLocal) perMinute += 60 / settings.countIntervalSeconds;
  if (loops.scoreboard) perMinute += 60 / settings.scoreboardIntervalSeconds;
  if (loops.detectionIntervalMs) perMinute += 60_000 / loops.detectionIntervalMs;
  if (loops.assistantIntervalSeconds) perMinute += 60 / loops.assistantIntervalSeconds;
  return Math.round(perMinute);
}

export type FreeCallMilestone = "warning" | "used-up" | null;

/** Which message a change of the used count from `before` to `after` calls for (each crossing only once). */
export function freeCallMilestone(before: number, after: number): FreeCallMilestone {
  if (after >= FREE_SHARED_CALLS && before < FREE_SHARED_CALLS) return "used-up";
  if (after >= FREE_CALLS_WARNING_AT && before < FREE_CALLS_WARNING_AT) return "warning";
  return null;
}
