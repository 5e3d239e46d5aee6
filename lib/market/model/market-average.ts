import { roundTo } from "@/lib/round";

/** Mean annualised funding (percent per year) of one market over the last day and week. */
export interface MarketAverage {
  day: number | null;
  week: number | null;
}

/**
 * Each market's mean annualised funding, looked up by `marketKey` with the market's snapshot at
 * hand: a round's averages are its stored sums with the snapshot's own observation added
 * (lib/market/ingest/read-market-averages.ts `roundAverages`), a map of them (which ignores the
 * snapshot) serves as well.
 */
export interface MarketAverages {
  get(key: string, observed: { fundingRate: number | null; fundingIntervalHours: number | null; observedAt: number }): MarketAverage | undefined;
}

/** One market's key in per-market maps: its venue and unified symbol. */
export function marketKey(exchange: string, market: string): string {
  return `${exchange}\u0000${market}`;
}

/**
 * A pair's mean APR over a window (`apr_1d_avg`, `apr_7d_avg`): the short leg's mean annualised
 * funding minus the long leg's, which is the mean of the pair's APR when both legs were sampled in
 * the same rounds (they are: one round observes every venue). NaN, the pair's null, when either leg
 * has no history in the window (NaN): numbers only, as the ranking computes it for each of a
 * round's 450,000 pairs.
 */
export function pairAverage(short: number, long: number): number {
  return roundTo(short - long, 6);
}
