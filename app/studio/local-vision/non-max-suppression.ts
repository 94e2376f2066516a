// Greedy non-maximum suppression over the model's 100 candidate boxes: plain arithmetic on a hundred
// boxes is cheaper than a round trip through the tfjs backend.
import { iou, type Box } from "./geometry";

/**
 * Keeps the best-scored detections, dropping any that overlap a kept one of the same class by more than
 * `iouThreshold`. Per class: a person holding a bag or sitting on a chair is two objects, not one box twice.
 */
export function nonMaxSuppression<T extends { box: Box; score: number; label?: string }>(candidates: readonly T[], iouThreshold: number, maxKept: number): T[] {
  const kept: T[] = [];
  for (const candidate of [...candidates].sort((a, b) => b.score - a.score)) {
    if (kept.length >= maxKept) break;
    if (kept.every((other) => other.label !== candidate.label || iou(other.box, candidate.box) <= iouThreshold)) kept.push(candidate);
  }
  return kept;
}
