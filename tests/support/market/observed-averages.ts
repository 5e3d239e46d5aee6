import { roundAverages, type RoundAverageSums } from "@/lib/market/ingest/read-market-averages";
import { marketKey, type MarketAverage } from "@/lib/market/model/market-average";
import type { MarketSnapshot } from "@/lib/market/model/types";

/** Each of `snapshots`' averages as a round's ranking asks for them (roundAverages), by `marketKey`; those with none left out. */
export function observedAverages(round: RoundAverageSums, snapshots: readonly MarketSnapshot[]): Map<string, MarketAverage> {
  const averages = roundAverages(round);
  const found = new Map<string, MarketAverage>();
  for (const s of snapshots) {
    const key = marketKey(s.exchange, s.market);
    const average = averages.get(key, s);
    if (average) found.set(key, average);
  }
  return found;
}
