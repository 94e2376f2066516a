// Greedy non-maximum suppression over the model's 100 candidate boxes: plain arithmetic on a hundred
// boxes is cheaper than a round trip through the tfjs backend.
import type { LocalDetection } from "./detector-types";

type Box = LocalDetection["box"];

export function intersectionOverUnion(a: Box, b: Box): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (width <= 0 || height <= 0) return 0;
  const overlap = width * height;
  return overlap / (a.width * a.height + b.width * b.height - overlap);
}

/** Keeps the best-scored detections, dropping any that overlap a kept one by more than `iouThreshold`. */
export function nonMaxSuppression<T extends { box: Box; score: number }>(candidates: readonly T[], iouThreshold: number, maxKept: number): T[] {
  const kept: T[] = [];
  for (const candidate of [...candidates].sort((a, b) => b.score - a.score)) {
    if (kept.length >= maxKept) break;
    if (kept.every((other) => intersectionOverUnion(other.box, candidate.box) <= iouThreshold)) kept.push(candidate);
  }
  return kept;
}
