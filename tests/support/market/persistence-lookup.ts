import type { MarketSnapshot, Persistence } from "@/lib/market/model/types";
import type { PersistenceLookup } from "@/lib/market/opportunities/rank-opportunities";

/**
 * A ranking's persistence lookup answering from a function of each pair's two markets, all of one
 * `as_of` (as a PersistenceSet's are): it numbers markets as the ranking meets them and gives each
 * known pair the next slot.
 */
export function persistenceByMarkets(asOf: string, of: (long: MarketSnapshot, short: MarketSnapshot) => Omit<Persistence, "as_of"> | undefined): PersistenceLookup {
  const markets: MarketSnapshot[] = [];
  const figures: number[] = [];
  const sinceTexts: string[] = [];
  return {
    marketNumber: (market) => markets.push(market) - 1,
    slotOf: (long, short) => {
      const persistence = of(markets[long]!, markets[short]!);
      if (!persistence) return -1;
      const since = persistence.positive_since === null ? -1 : sinceTexts.push(persistence.positive_since) - 1;
      const slot = figures.length / 5;
      figures.push(persistence.apr_median_7d ?? Number.NaN, persistence.apr_median_30d ?? Number.NaN, persistence.paid_share_7d ?? Number.NaN, persistence.apr_stddev_7d ?? Number.NaN, since);
      return slot;
    },
    slots: () => ({ figures, asOf, sinceTexts }),
  };
}
