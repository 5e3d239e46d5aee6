import type { Db } from "@/lib/db";
import { rankOpportunities, rankOpportunitiesInSlices, type ComputeOpportunitiesOptions, type RowWriter } from "../opportunities/rank-opportunities";
import type { ColumnSlabs, OpportunityColumns } from "../opportunities/opportunity-columns";
import type { PartialAssets } from "../opportunities/pair-scope";
import type { PairPersistenceStore } from "../persistence/pair-persistence-store";
import type { PersistenceSet } from "../persistence/persistence-set";
import { INTERVAL_CHANGE_RECENT_MS, type MarketSnapshot } from "../model/types";
import type { SettlementRow } from "./derive-settlements";
import type { IntervalChangeRow } from "../model/funding-interval-change";
import { readRecentIntervalChanges } from "./read-interval-changes";
import { readLastSettlements } from "./read-last-settlements";
import { readRoundAverageSums, roundAverages, type RoundAverageSums } from "./read-market-averages";
import { marketKey } from "../model/market-average";
import type { RecalledRounds } from "./round-memory";

/** What the stored history adds to a round's observations, by `marketKey`. */
export interface MarketHistory {
  /** Each market's last interval change within INTERVAL_CHANGE_RECENT_MS (epoch ms). */
  intervalChanges: ReadonlyMap<string, number>;
  /** Each market's last recorded settlement. */
  settlements: ReadonlyMap<string, { rate: number; at: number }>;
  /** Each market's annualised funding summed over the last day and week, before this round. */
  averages: RoundAverageSums;
  /** Each pair's persistence as last computed (precomputed once an hour, never in the round); null without. */
  persistence: PersistenceSet | null;
  /**
   * PAIR_PRICE_BOUND, which the round ranks with and the micro-batches ranked on its history keep
   * until the next round (rankOpportunities' `priceBound`); no leg is held to a price without.
   */
  priceBound?: number;
}

/**
 * The three reads a round makes of stored history before ranking, at once, and the pair
 * persistence `persistence` holds in memory (read from storage only on its first use). Markets'
 * last settlements and interval changes come from `recalled` when the round has them from memory
 * (RoundMemory): then only the averages are read, and of those only the hours that can no longer
 * change when the round is the hour's first or the memory has no live sums (RoundMemory.folded).
 */
export async function readMarketHistory(
  db: Db,
  startedAt: Date,
  now: Date,
  persistence?: PairPersistenceStore,
  recalled?: RecalledRounds,
): Promise<MarketHistory> {
  const [intervalChanges, settlements, averages, pairs] = await Promise.all([
    recalled?.intervalChanges ?? readRecentIntervalChanges(db, new Date(startedAt.getTime() - INTERVAL_CHANGE_RECENT_MS)),
    recalled?.settlements ?? readLastSettlements(db, now),
    readRoundAverageSums(db, startedAt, recalled?.liveSums),
    persistence ? persistence.current() : null,
  ]);
  return { intervalChanges, settlements, averages, persistence: pairs };
}

/**
 * The history with a round's own findings added, which the history read beside its fetch could
 * not see yet: the settlements and interval changes it just revealed are each market's newest.
 * Its observations join the averages when ranking (rankWithHistory).
 */
export function withRoundFindings(
  history: MarketHistory,
  settlements: readonly SettlementRow[],
  intervalChanges: readonly IntervalChangeRow[],
): MarketHistory {
  if (settlements.length === 0 && intervalChanges.length === 0) return history;
  const lastSettlement = new Map(history.settlements);
  for (const s of settlements) {
    const key = marketKey(s.exchange, s.market);
    const at = s.time.getTime();
    if ((lastSettlement.get(key)?.at ?? -Infinity) < at) lastSettlement.set(key, { rate: s.rate, at });
  }
  const lastChange = new Map(history.intervalChanges);
  for (const c of intervalChanges) {
    const key = marketKey(c.exchange, c.market);
    const at = c.effectiveAt.getTime();
    if ((lastChange.get(key) ?? -Infinity) < at) lastChange.set(key, at);
  }
  return { ...history, settlements: lastSettlement, intervalChanges: lastChange };
}

/**
 * A round's ranking: each market's leg with its last interval change and settlement, and each
 * opportunity with its pair's mean APRs and persistence; of an asset in `partial`, only its pairs
 * with a leg on one of its venues there (a micro-batch's). Pure.
 */
export function rankWithHistory(fresh: readonly MarketSnapshot[], history: MarketHistory, partial?: PartialAssets): OpportunityColumns {
  return rankOpportunities(fresh, { ...rankingOptions(history, undefined), ...(partial && { partial }) }).columns;
}

/**
 * `rankWithHistory` giving the event loop a turn every `sliceMs` (rankOpportunitiesInSlices): a
 * round's whole set, ranked on the thread that serves requests and publishes micro-batches.
 */
export async function rankWithHistoryInSlices(
  fresh: readonly MarketSnapshot[],
  history: MarketHistory,
  slabs?: ColumnSlabs,
  sliceMs?: number,
  rowWriter?: RowWriter,
): Promise<OpportunityColumns> {
  return (await rankOpportunitiesInSlices(fresh, { ...rankingOptions(history, slabs), ...(rowWriter && { rowWriter }) }, sliceMs)).columns;
}

function rankingOptions(history: MarketHistory, slabs: ColumnSlabs | undefined): ComputeOpportunitiesOptions {
  const set = history.persistence;
  return {
    averages: roundAverages(history.averages),
    marketHistory: { intervalChanges: history.intervalChanges, settlements: history.settlements },
    ...(set && { persistence: set }),
    ...(history.priceBound !== undefined && { priceBound: history.priceBound }),
    slabs,
  };
}
