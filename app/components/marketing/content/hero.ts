// The home hero (spec §2 section 1, §4, §9): its story-mode sentence and how it is revealed.
import { brand } from "#app/lib/brand";

export const HERO_SENTENCE = `Point a camera at anything. ${brand.productName} finds what matters, tells its story, and captures the moment automatically.`;
export const HERO_WORD_INTERVAL_MS = 400;
export const HERO_VISIBILITY_THRESHOLD = 0.3;
