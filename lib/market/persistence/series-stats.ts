/**
 * The median of the first `count` values of `values`, which it reorders in place (callers pass a
 * scratch buffer). Mean of the two middle values when `count` is even; NaN when it is 0. A
 * selection rather than a sort: a persistence computation takes two medians of up to 720 values
 * for each of 100k pairs, and sorting them was most of its time.
 */
export function medianInPlace(values: Float64Array, count: number): number {
  if (count === 0) return Number.NaN;
  const upper = selectInPlace(values, count, count >> 1);
  if (count % 2 === 1) return upper;
  // Everything before the selected position is no larger than it: the lower middle is their largest.
  let lower = values[0]!;
  for (let i = 1; i < count >> 1; i++) if (values[i]! > lower) lower = values[i]!;
  return (lower + upper) / 2;
}

/**
 * The k-th smallest (0-based) of the first `count` values, moved to index k with only values no
 * larger before it: Hoare's selection with a median-of-three pivot, linear on average.
 */
function selectInPlace(a: Float64Array, count: number, k: number): number {
  let lo = 0;
  let hi = count - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    const [x, y, z] = [a[lo]!, a[mid]!, a[hi]!];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const swap = a[i]!;
        a[i] = a[j]!;
        a[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break; // j < k < i: every value between them equals the pivot
  }
  return a[k]!;
}

/** Population standard deviation (divided by `count`, not `count − 1`) of the first `count` values; NaN when it is 0. */
export function populationStddev(values: Float64Array, count: number): number {
  if (count === 0) return Number.NaN;
  let sum = 0;
  for (let i = 0; i < count; i++) sum += values[i]!;
  const mean = sum / count;
  // Two passes: summing squares of deviations, not squares of values, keeps a constant series at ~0
  // rather than the difference of two large, rounded sums.
  let squares = 0;
  for (let i = 0; i < count; i++) squares += (values[i]! - mean) ** 2;
  return Math.sqrt(squares / count);
}
