// Time spent in a zone, kept as a histogram per hour (vision_dwell_hours) rather than one row per visit: the buckets
// are app/schemas/insights.ts DWELL_BUCKETS, and a median is read back from them.
import { DWELL_BUCKETS } from "#app/schemas/insights";

/** The bucket an exit's dwell falls in: the first whose upper bound it does not pass; the last is open-ended. */
export function dwellBucket(seconds: number): number {
  const index = DWELL_BUCKETS.findIndex((upTo) => seconds <= upTo);
  return index === -1 ? DWELL_BUCKETS.length : index;
}

/**
 * The median of a histogram, interpolated within its bucket (the open-ended last bucket answers its lower bound).
 * Null when nobody left the zone.
 */
export function histogramMedian(counts: readonly number[]): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const half = total / 2;
  let below = 0;
  for (let bucket = 0; bucket < counts.length; bucket++) {
    const count = counts[bucket] ?? 0;
    if (count > 0 && below + count >= half) {
      const low = bucket === 0 ? 0 : DWELL_BUCKETS[bucket - 1]!;
      const high = DWELL_BUCKETS[bucket];
      if (high === undefined) return low;
      return low + ((half - below) / count) * (high - low);
    }
    below += count;
  }
  return null;
}
