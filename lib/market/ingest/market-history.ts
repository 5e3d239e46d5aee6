import type { Db } from "@/lib/db";
import { computeOpportunities } from "../apr";
import type { PairPersistenceStore } from "../persistence/pair-persistence-store";
import type { PersistenceSet } from "../persistence/persistence-set";
import { INTERVAL_CHANGE_RECENT_MS, type MarketSnapshot, type Opportunity } from "../types";
import { readRecentIntervalChanges } from "./read-interval-changes";
import { readLastSettlements } from "./read-last-settlements";
import { readMarketAverages } from "./read-market-averages";
import { marketKey, withAverageAprs, type MarketAverage } from "./with-average-aprs";

/** What the stored history adds to a round's observations, by `marketKey`. */
export interface MarketHistory {
  /** Each market's last interval change within INTERVAL_CHANGE_RECENT_MS (epoch ms). */
  intervalChanges: ReadonlyMap<string, number>;
  /** Each market's last recorded settlement. */
  settlements: ReadonlyMap<string, { rate: number; at: number }>;
  /** Each market's mean annualised funding over the last day and week. */
  averages: ReadonlyMap<string, MarketAverage>;
  /** Each pair's persistence as last computed (precomputed once an hour, never in the round); null without. */
  persistence: PersistenceSet | null;
}

/**
 * The three reads a round makes of stored history before ranking, at once, and the pair
 * persistence `persistence` holds in memory (read from storage only on its first use).
 */
export async function readMarketHistory(db: Db, startedAt: Date, now: Date, persistence?: PairPersistenceStore): Promise<MarketHistory> {
  const [intervalChanges, settlements, averages, pairs] = await Promise.all([
    readRecentIntervalChanges(db, new Date(startedAt.getTime() - INTERVAL_CHANGE_RECENT_MS)),
    readLastSettlements(db, now),
    readMarketAverages(db, startedAt),
    persistence ? persistence.current() : null,
  ]);
  return { intervalChanges, settlements, averages, persistence: pairs };
}

/**
 * A round's ranking: each snapshot with its market's last interval change and settlement (for the
 * legs), ranked, and each opportunity with its pair's mean APRs and persistence. Pure.
 */
export function rankWithHistory(fresh: readonly MarketSnapshot[], history: MarketHistory): Opportunity[] {
  const marked = fresh.map((s): MarketSnapshot => {
    const key = marketKey(s.exchange, s.market);
    return { ...s, intervalChangedAt: history.intervalChanges.get(key) ?? null, lastSettlement: history.settlements.get(key) ?? null };
  });
  const set = history.persistence;
  const ranked = computeOpportunities(marked, set ? { persistence: (long, short) => set.persistenceOf(long, short) } : {});
  return withAverageAprs(ranked.opportunities, history.averages);
}
