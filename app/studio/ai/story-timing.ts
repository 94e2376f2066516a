// Story mode's pacing (spec §9 AI): each caption is revealed word by word, and the next caption is asked
// for once the reader has had time for this one — words × word delay + 1000 ms, never under 2000 ms.
import { STORY_WORD_DELAY_MS, type StorySpeed } from "./ai-settings";

export const STORY_EXTRA_MS = 1000;
export const STORY_MIN_DELAY_MS = 2000;
/** Cross-fade between one story caption and the next. */
export const STORY_CROSSFADE_MS = 400;

export function captionWords(caption: string): string[] {
  return caption.split(/\s+/).filter(Boolean);
}

/** Milliseconds from a story caption's arrival to the next request. */
export function storyNextDelayMs(caption: string, speed: StorySpeed): number {
  return Math.max(STORY_MIN_DELAY_MS, captionWords(caption).length * STORY_WORD_DELAY_MS[speed] + STORY_EXTRA_MS);
}
