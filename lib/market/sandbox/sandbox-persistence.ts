import { annualisedFundingPct } from "../model/apr";
import { computePairRecord, HOUR_MS, HOURS_30D, HOURS_7D, type MarketSeries, type PairRecord } from "../persistence/pair-persistence";
import { crossVenuePairs, PersistenceSet, type MarketRef } from "../persistence/persistence-set";
import { settledHourlyRates, type SettlementPoint } from "../persistence/settled-hours";
import { sandboxHours, sandboxListings } from "./sandbox-hourly-funding";

let current: PersistenceSet | undefined;

/**
 * The sandbox's pair persistence for the hours before the hour containing `at`, computed as a live
 * service computes it (lib/market/persistence/), from the sandbox's own 30 days of hourly history
 * (sandbox-hourly-funding.ts) and the settlements it implies. A function of the hour, so every test
 * key sees the same figures: no run is followed beyond the 30 days (a live service follows one
 * from hour to hour), so a spread positive throughout is dated at the window's start. The last
 * hour's set is kept (~20 ms to compute from the cached hours).
 */
export function sandboxPersistence(at: Date): PersistenceSet {
  const through = Math.floor(at.getTime() / HOUR_MS) * HOUR_MS;
  if (current?.through === through) return current;
  const hours = sandboxHours(through, HOURS_30D);
  const settledFrom = hours.length - HOURS_7D;
  const listings = sandboxListings();
  const series = listings.map((_, i): MarketSeries => {
    const apr = new Float64Array(HOURS_30D);
    const settlements: SettlementPoint[] = [];
    hours.forEach((h, k) => {
      const intervalHours = h.intervals[i]!;
      apr[k] = annualisedFundingPct({ rate: h.rates[i]!, intervalHours });
      // A market whose interval ends with this hour settles at its end, at the hour's rate.
      const end = h.hour + HOUR_MS;
      if (k >= settledFrom && end % (intervalHours * HOUR_MS) === 0) settlements.push({ time: end, rate: h.rates[i]!, intervalHours });
    });
    return { apr, paid: settledHourlyRates(settlements, through - HOURS_7D * HOUR_MS, HOURS_7D) };
  });
  const byBase = new Map<string, { exchange: string; market: string; index: number }[]>();
  listings.forEach((l, index) => {
    let list = byBase.get(l.base);
    if (!list) byBase.set(l.base, (list = []));
    list.push({ exchange: l.exchange, market: l.market, index });
  });
  const pairs: [MarketRef, MarketRef, PairRecord][] = [];
  for (const markets of byBase.values()) {
    for (const [first, second] of crossVenuePairs(markets)) pairs.push([first, second, computePairRecord(series[first.index]!, series[second.index]!, through)]);
  }
  current = PersistenceSet.of(through, pairs);
  return current;
}
