/**
 * A fixed log-bucket histogram of latencies in milliseconds: SUBDIVISIONS buckets per doubling from
 * 1 ms to 2^MAX_DOUBLINGS ms (~17 minutes), bucket 0 below 1 ms, the last one everything beyond.
 * A bucket spans a factor of 2^(1/8) ≈ 1.09, so a percentile read from it is within ~5 % of the
 * samples' own (its geometric middle). Its size never grows with the samples: what the feed board
 * keeps per venue and minute instead of every sample.
 */
const SUBDIVISIONS = 8;
const MAX_DOUBLINGS = 20;
export const HISTOGRAM_BUCKETS = SUBDIVISIONS * MAX_DOUBLINGS + 2;

/** The bucket of a latency of `ms` (negative ones, a venue clock ahead of ours, count as 0). */
export function bucketOf(ms: number): number {
  if (!(ms >= 1)) return 0;
  return Math.min(HISTOGRAM_BUCKETS - 1, 1 + Math.floor(Math.log2(ms) * SUBDIVISIONS));
}

/** The value a bucket stands for: the geometric middle of its bounds (0 for bucket 0). */
export function bucketValue(bucket: number): number {
  if (bucket <= 0) return 0;
  return 2 ** ((bucket - 0.5) / SUBDIVISIONS);
}

/**
 * The `q`-quantile (0 < q ≤ 1) of the samples counted in `counts` (one or more histograms added),
 * clamped to the smallest and largest sample seen; null without samples. Nearest rank: the value
 * of the ⌈q·n⌉-th smallest sample's bucket.
 */
export function quantile(counts: ArrayLike<number>, total: number, q: number, min: number, max: number): number | null {
  if (total <= 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let bucket = 0; bucket < counts.length; bucket++) {
    seen += counts[bucket]!;
    if (seen >= rank) return Math.min(max, Math.max(min, bucketValue(bucket)));
  }
  return max;
}
