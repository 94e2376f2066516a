// Greedy non-maximum suppression over the model's 100 candidate boxes: plain arithmetic on a hundred
// boxes is cheaper than a round trip through the tfjs backend.
import { iou, type Box } from "./geometry";

/** Keeps the best-scored detections, dropping any that overlap a kept one by more than `iouThreshold`. */
export function nonMaxSuppression<T extends { box: Box; score: number }>(candidates: readonly T[], iouThreshold: number, maxKept: number): T[] {
  const kept: T[] = [];
  for (const candidate of [...candidates].sort((a, b) => b.score - a.score)) {
    if (kept.length >= maxKept) break;
    if (kept.every((other) => iou(other.box, candidate.box) <= iouThreshold)) kept.push(candidate);
  }
  return kept;
}
