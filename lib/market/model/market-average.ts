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

/**
 * One market's key in per-market maps: its venue and unified symbol. The same text each time for
 * the same market (kept per venue, by symbol): a round looks each of its 26,000 markets up in five
 * maps of that size (its stored average sums, settled and live, its last settlement, its interval
 * change and its persistence number), and a key joined anew each round was a new text to flatten
 * and hash on its first lookup and to compare character by character with the stored key on every
 * lookup, where the same text is found by identity. Markets are what venues list, so the texts kept
 * are bounded by those (~30,000 at 46 venues), not by the rounds.
 */
export function marketKey(exchange: string, market: string): string {
  let byMarket = keys.get(exchange);
  if (byMarket === undefined) keys.set(exchange, (byMarket = new Map()));
  let key = byMarket.get(market);
  if (key === undefined) byMarket.set(market, (key = `${exchange}\u0000${market}`));
  return key;
}

/** marketKey's texts, by venue and symbol: one per market this thread has seen. */
const keys = new Map<string, Map<string, string>>();

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
