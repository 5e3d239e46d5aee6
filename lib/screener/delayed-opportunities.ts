import type { Db } from "@/lib/db";
import { computeOpportunities } from "@/lib/market/opportunities/rank-opportunities";
import { readIngestConfig } from "@/lib/market/ingest/ingest-config";
import { readMarketAverages } from "@/lib/market/ingest/read-market-averages";
import { fromSnapshotRow } from "@/lib/market/ingest/store-round";
import { OpportunitySnapshot } from "@/lib/market/opportunities/opportunity-query";
import { storedPersistenceAt } from "@/lib/market/persistence/pair-persistence-store";
import { processSingleton } from "@/lib/singleton";
import { delayCutoff, delayedSource, FREE_DELAY_MS } from "./delay";


export type DelayedView =
  | { status: "ready"; snapshot: OpportunitySnapshot }
  /** No stored round is old enough yet; `availableAt` is when the oldest one will be (ISO), if any. */
  | { status: "pending"; availableAt: string | null };

interface Cached {
  roundId: string;
  snapshot: Promise<OpportunitySnapshot>;
}

/**
 * The opportunity set as it was at least FREE_DELAY_MS ago, for Free accounts.
 *
 * How: every ingestion round stores what each venue answered (RoundSnapshot) and is kept for
 * MARKET_RAW_RETENTION_DAYS, and the live set is nothing but `computeOpportunities` over one
 * published round's snapshots. So the delayed set is that same computation over the newest
 * published round that started before the cutoff — the set that was live then, without keeping a
 * second copy of every set. Its 1d/7d averages come from the hourly history of the whole hours
 * before that round, and its persistence from the set computed for an hour no later than the
 * round's start, so no later observation leaks in. When the live set is itself old enough (the
 * bundled sample, stalled ingestion) it is served as it is. Each process computes a round's set
 * once (a few milliseconds for thousands of markets) and keeps only the latest.
 */
export async function delayedOpportunities(db: Db, live: OpportunitySnapshot, now: Date): Promise<DelayedView> {
  if (delayedSource(live.asOf, now) === "live-set") return { status: "ready", snapshot: live };
  const cutoff = delayCutoff(now);
  const round = await db.ingestionRound.findFirst({
    where: { status: "published", startedAt: { lte: cutoff } },
    orderBy: { startedAt: "desc" },
    select: { id: true, startedAt: true },
  });
  if (!round) {
    const first = await db.ingestionRound.findFirst({
      where: { status: "published", startedAt: { gt: cutoff } },
      orderBy: { startedAt: "asc" },
      select: { startedAt: true },
    });
    return { status: "pending", availableAt: first ? new Date(first.startedAt.getTime() + FREE_DELAY_MS).toISOString() : null };
  }
  const cache = processSingleton("screener-delayed-set", () => ({ current: undefined as Cached | undefined }));
  if (cache.current?.roundId !== round.id) {
    const snapshot = roundOpportunities(db, round.id, round.startedAt);
    const entry = { roundId: round.id, snapshot };
    cache.current = entry;
    snapshot.catch(() => {
      if (cache.current === entry) cache.current = undefined;
    });
  }
  return { status: "ready", snapshot: await cache.current!.snapshot };
}

async function roundOpportunities(db: Db, roundId: string, startedAt: Date): Promise<OpportunitySnapshot> {
  const [rows, averages, persistence] = await Promise.all([
    db.roundSnapshot.findMany({ where: { roundId }, orderBy: { id: "asc" } }),
    readMarketAverages(db, startedAt, { wholeHoursBefore: true }),
    storedPersistenceAt(db, startedAt),
  ]);
  // Held to the price bound the live rounds rank with, so Free accounts see no pair the live set left out.
  const priceBound = readIngestConfig().PAIR_PRICE_BOUND;
  const { opportunities } = computeOpportunities(
    rows.map(fromSnapshotRow),
    persistence ? { averages, priceBound, persistence } : { averages, priceBound },
  );
  return new OpportunitySnapshot(opportunities, startedAt.toISOString(), false);
}
