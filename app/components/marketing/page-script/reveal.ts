// The hero's story-mode sentence: one more word every 400 ms once 30% of the hero is visible.
import { HERO_VISIBILITY_THRESHOLD, HERO_WORD_INTERVAL_MS } from "../content/hero";
import { STAGED } from "../view-states";
import { all, onReducedMotionChange, prefersReducedMotion, setClasses, whenInView } from "./dom";

export function enhanceReveal(sentence: HTMLElement): void {
  const words = all(sentence, "[data-word]");
  let revealed = 0;
  let timer: ReturnType<typeof setInterval> | undefined;

  const show = (count: number) => {
    revealed = count;
    words.forEach((word, index) => setClasses(word, STAGED, index < count));
    sentence.dataset.revealed = String(count);
    if (count >= words.length) clearInterval(timer);
  };
  const finish = () => show(words.length);

  onReducedMotionChange((reduced) => reduced && finish());
  if (prefersReducedMotion()) return finish();
  whenInView(sentence.closest("section") ?? sentence, HERO_VISIBILITY_THRESHOLD, () => {
    if (revealed >= words.length) return;
    // One interval rather than a timer per word, so the pace never drifts.
    timer = setInterval(() => show(revealed + 1), HERO_WORD_INTERVAL_MS);
  });
}
