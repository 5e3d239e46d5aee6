import type { Db } from "@/lib/db";
import { computeOpportunities } from "../apr";
import { publishLiveOpportunities } from "../publish-opportunities";
import { INTERVAL_CHANGE_RECENT_MS, VENUE_IDS, type MarketSnapshot, type VenueId, type VenueSnapshotResult } from "../types";
import { aggregateRound, closeAbandonedRounds } from "./aggregate-rounds";
import { applyRetention, type RetentionPolicy } from "./apply-retention";
import { deriveSettlements } from "./derive-settlements";
import { detectIntervalChanges } from "./detect-interval-changes";
import { fetchAllVenues, type VenueFetcher } from "./fetch-all-venues";
import { readRecentIntervalChanges } from "./read-interval-changes";
import { readLastSettlements } from "./read-last-settlements";
import { readMarketAverages } from "./read-market-averages";
import { previousObservations, storeRound, venueRoundResult, type VenueRoundResult } from "./store-round";
import { marketKey, withAverageAprs } from "./with-average-aprs";

export interface IngestionRoundOptions {
  db: Db;
  fetcher: VenueFetcher;
  timeoutMs: number;
  retention: RetentionPolicy;
  venues?: readonly VenueId[];
  now?: () => number;
  /** Replaces the publishing step; tests use it to break a round between storing and publishing. */
  publish?: typeof publishLiveOpportunities;
  /** Called once the new set is committed: this process's in-memory set reloads. */
  onPublished?: () => void;
}

export interface RoundOutcome {
  roundId: string;
  status: "published" | "failed";
  venues: VenueRoundResult[];
  opportunities: number;
  settlements: number;
  error?: string;
}

/**
 * One ingestion round: fetch every venue in parallel (each under its deadline), store what came
 * back with the settlements it reveals, fold it into the hourly history, rank the opportunities of
 * the venues that answered and replace the live set in one transaction. A round that fails or is
 * killed before that transaction leaves the previous set exactly as it was.
 */
export async function runIngestionRound(options: IngestionRoundOptions): Promise<RoundOutcome> {
  const { db } = options;
  const now = options.now ?? Date.now;
  const venues = options.venues ?? VENUE_IDS;
  const startedAt = new Date(now());
  await closeAbandonedRounds(db, startedAt);
  const round = await db.ingestionRound.create({ data: { startedAt, status: "running" } });
  const progress: VenueRoundResult[] = [];
  let progressWrites = Promise.resolve();
  try {
    const previous = previousObservations(db, venues, { excludeRoundId: round.id, now: startedAt });
    const results = await fetchAllVenues(options.fetcher, {
      timeoutMs: options.timeoutMs,
      venues,
      now,
      onVenue: (result) => {
        progress.push(venueRoundResult(result, startedAt.getTime(), now()));
        const snapshot = [...progress];
        // Written one after another so a slower write never overwrites newer progress.
        progressWrites = progressWrites
          .then(() => db.ingestionRound.update({ where: { id: round.id }, data: { venues: snapshot as unknown as object[] } }))
          .then(
            () => undefined,
            (error: unknown) => console.error("recording round progress failed", error),
          );
      },
    });
    await progressWrites;
    const venueResults = results.map((r) => progress.find((p) => p.exchange === r.exchange) ?? venueRoundResult(r, startedAt.getTime(), now()));
    const fresh = results.flatMap((r) => (r.status === "ok" ? r.snapshots : []));
    const seenBefore = await previous;
    const settlements = deriveSettlements(seenBefore, fresh);
    const intervalChanges = detectIntervalChanges(seenBefore, fresh);
    await storeRound(db, round.id, results, venueResults, { settlements, intervalChanges }, startedAt);
    await aggregateRound(db, round.id);

    if (fresh.length === 0) {
      return await finish(db, round.id, venueResults, settlements.length, "every venue is stale; the previous opportunity set stays");
    }
    // What the stored history adds to this round's observations: each market's last interval change
    // and last settlement for the legs, and its mean APRs for the opportunities.
    const [recentChanges, lastSettlements, averages] = await Promise.all([
      readRecentIntervalChanges(db, new Date(startedAt.getTime() - INTERVAL_CHANGE_RECENT_MS)),
      readLastSettlements(db, new Date(now())),
      readMarketAverages(db, startedAt),
    ]);
    const { opportunities } = computeOpportunities(fresh.map((s) => withHistory(s, recentChanges, lastSettlements)));
    const items = withAverageAprs(opportunities, averages);
    await (options.publish ?? publishLiveOpportunities)(db, items, { asOf: dataAsOf(results, startedAt), sample: false }, [
      db.ingestionRound.update({
        where: { id: round.id },
        data: { status: "published", finishedAt: new Date(now()), opportunities: items.length },
      }),
    ]);
    options.onPublished?.();
    await applyRetention(db, options.retention, new Date(now())).catch((error: unknown) =>
      console.error("market data retention failed", error),
    );
    return { roundId: round.id, status: "published", venues: venueResults, opportunities: items.length, settlements: settlements.length };
  } catch (error) {
    await progressWrites;
    const message = error instanceof Error ? error.message : String(error);
    console.error(`ingestion round ${round.id} failed`, error);
    return finish(db, round.id, progress, 0, message.slice(0, 500));
  }
}

function withHistory(
  s: MarketSnapshot,
  changes: ReadonlyMap<string, number>,
  settlements: ReadonlyMap<string, { rate: number; at: number }>,
): MarketSnapshot {
  const key = marketKey(s.exchange, s.market);
  return { ...s, intervalChangedAt: changes.get(key) ?? null, lastSettlement: settlements.get(key) ?? null };
}

async function finish(db: Db, roundId: string, venues: VenueRoundResult[], settlements: number, error: string): Promise<RoundOutcome> {
  await db.ingestionRound.update({ where: { id: roundId }, data: { status: "failed", finishedAt: new Date(), error } });
  return { roundId, status: "failed", venues, opportunities: 0, settlements, error };
}

/**
 * The oldest fresh venue's fetch time: every published number was observed at or after it.
 * Venue payload times are not used because replayed payloads carry their recording dates.
 */
function dataAsOf(results: readonly VenueSnapshotResult[], fallback: Date): Date {
  const fetched = results.filter((r) => r.status === "ok").map((r) => r.fetchedAt);
  return fetched.length ? new Date(Math.min(...fetched)) : fallback;
}
