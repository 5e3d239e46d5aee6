/** PAIR_PRICE_BOUND's default: legs whose per-unit marks differ by more than 5 % are never paired. */
export const DEFAULT_PAIR_PRICE_BOUND = 0.05;

/** The legs of one asset the bound leaves out, and the median they strayed from. */
export interface StrayPrices {
  /** The median per-unit mark of the priced legs (mean of the two middle ones for an even count). */
  median: number;
  /** Positions (into the prices given) of the legs left out, ascending; never empty. */
  outside: number[];
}

/**
 * Which of one asset's legs agree on its price within `bound`, the rest left out. Two legs of the
 * same asset, observed within seconds, differ by a few basis points; two tokens sharing a ticker, or a
 * bundle read as one unit, differ by far more than any funding could repay. The priced legs (NaN: no
 * mark, kept, since nothing can be checked) are sorted and the cheapest or dearest, whichever lies
 * farther from the median by ratio (the dearer on a tie), is left out until the spread of the rest,
 * dearest against cheapest over their mean as `price_spread_bps` measures a pair, is within `bound`:
 * so no two kept legs differ by more, and the legs left out are the fewest that stray from the
 * majority. When fewer than two priced legs agree, which is right cannot be told: all are left out.
 * Undefined when every leg is kept, the usual case, settled by one pass for the cheapest and
 * dearest: per asset rather than per pair, and a sort only for an asset whose legs disagree.
 */
export function strayPrices(prices: readonly number[], bound: number): StrayPrices | undefined {
  let cheapest = Number.POSITIVE_INFINITY;
  let dearest = Number.NEGATIVE_INFINITY;
  for (const price of prices) {
    // NaN (no mark) fails both comparisons.
    if (price < cheapest) cheapest = price;
    if (price > dearest) dearest = price;
  }
  // No two priced legs, or all within the bound.
  if (!(cheapest < dearest) || spread(cheapest, dearest) <= bound) return undefined;
  const priced: number[] = [];
  for (let i = 0; i < prices.length; i++) if (!Number.isNaN(prices[i]!)) priced.push(i);
  priced.sort((a, b) => prices[a]! - prices[b]! || a - b);
  const at = (rank: number) => prices[priced[rank]!]!;
  const middle = priced.length >> 1;
  const median = priced.length % 2 === 1 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
  let low = 0;
  let high = priced.length - 1;
  while (low < high && spread(at(low), at(high)) > bound) {
    if (median / at(low) > at(high) / median) low += 1;
    else high -= 1;
  }
  const kept = low < high ? priced.slice(low, high + 1) : [];
  const keptSet = new Set(kept);
  const outside = priced.filter((i) => !keptSet.has(i)).sort((a, b) => a - b);
  return { median, outside };
}

/** Dearer against cheaper over their mean, as `price_spread_bps` measures a pair (as a fraction). */
function spread(cheaper: number, dearer: number): number {
  return (dearer - cheaper) / ((dearer + cheaper) / 2);
}
