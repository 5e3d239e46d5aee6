import type { Db } from "@/lib/db";
import type { RoundSnapshot } from "@/lib/db/generated/client";
import { intervalSourceSchema, type MarketSnapshot, type VenueId, type VenueSnapshotResult } from "../types";
import type { PreviousObservation, SettlementRow } from "./derive-settlements";
import type { IntervalChangeRow } from "./detect-interval-changes";

/** One venue's line in IngestionRound.venues and GET /v1/exchanges' round progress. */
export interface VenueRoundResult {
  exchange: VenueId;
  status: "ok" | "stale";
  markets: number;
  error: string | null;
  duration_ms: number;
}

export function venueRoundResult(result: VenueSnapshotResult, startedAt: number, now: number): VenueRoundResult {
  return {
    exchange: result.exchange,
    status: result.status,
    markets: result.status === "ok" ? result.snapshots.length : 0,
    error: result.status === "stale" ? result.error.slice(0, 500) : null,
    duration_ms: Math.max(0, now - startedAt),
  };
}

/** How far back a venue's previous observations are looked for; older ones say nothing about the next settlement. */
const PREVIOUS_WITHIN_MS = 24 * 3_600_000;

/**
 * Each venue's newest stored observations: the markets of the latest earlier round in which that
 * venue answered. Found through the rounds' per-venue results (newest rounds first, by the
 * startedAt index) and then the round's snapshots (by the roundId index), so the cost does not
 * grow with the history kept, even for a venue that has been stale for hours.
 */
export async function previousObservations(
  db: Db,
  venues: readonly VenueId[],
  options: { excludeRoundId: string; now: Date },
): Promise<PreviousObservation[]> {
  const rounds = await db.ingestionRound.findMany({
    where: { id: { not: options.excludeRoundId }, startedAt: { gte: new Date(options.now.getTime() - PREVIOUS_WITHIN_MS) } },
    orderBy: { startedAt: "desc" },
    select: { id: true, venues: true },
  });
  const found: PreviousObservation[] = [];
  const pending = new Set<string>(venues);
  for (const round of rounds) {
    if (pending.size === 0) break;
    const answered = Array.isArray(round.venues) ? (round.venues as Partial<VenueRoundResult>[]) : [];
    for (const entry of answered) {
      if (entry.status !== "ok" || !entry.exchange || !pending.has(entry.exchange)) continue;
      // A round killed before storing recorded the venue's answer but no snapshots: look further back.
      const rows = await db.roundSnapshot.findMany({
        where: { roundId: round.id, exchange: entry.exchange },
        select: { exchange: true, market: true, base: true, fundingRate: true, fundingIntervalHours: true, nextFundingAt: true, observedAt: true },
      });
      if (rows.length === 0) continue;
      pending.delete(entry.exchange);
      for (const r of rows) found.push({ ...r, nextFundingAt: r.nextFundingAt?.getTime() ?? null, observedAt: r.observedAt.getTime() });
    }
  }
  return found;
}

/** What a round found beyond its observations, derived by comparing them with the previous ones. */
export interface RoundFindings {
  settlements: readonly SettlementRow[];
  intervalChanges: readonly IntervalChangeRow[];
}

/**
 * Writes a round's observations, the settlements and interval changes they reveal and each
 * venue's health in one transaction: a round is stored whole or not at all.
 */
export async function storeRound(
  db: Db,
  roundId: string,
  results: readonly VenueSnapshotResult[],
  venues: readonly VenueRoundResult[],
  findings: RoundFindings,
  attemptedAt: Date,
): Promise<void> {
  const snapshots = results.flatMap((r) => (r.status === "ok" ? r.snapshots : []));
  await db.$transaction([
    db.roundSnapshot.createMany({ data: snapshots.map((s) => snapshotRow(roundId, s)) }),
    db.fundingRate.createMany({ data: [...findings.settlements], skipDuplicates: true }),
    // A round replayed after a crash finds the same change again: the first record stands.
    db.fundingIntervalChange.createMany({ data: [...findings.intervalChanges], skipDuplicates: true }),
    ...venues.map((v) =>
      db.venueHealth.upsert({
        where: { id: v.exchange },
        create: {
          id: v.exchange,
          status: v.status,
          lastAttemptAt: attemptedAt,
          lastSuccessAt: v.status === "ok" ? attemptedAt : null,
          lastError: v.error,
          marketsCount: v.markets,
        },
        // A stale venue keeps its last success and market count: that is what "stale" means.
        update:
          v.status === "ok"
            ? { status: "ok", lastAttemptAt: attemptedAt, lastSuccessAt: attemptedAt, lastError: null, marketsCount: v.markets }
            : { status: "stale", lastAttemptAt: attemptedAt, lastError: v.error },
      }),
    ),
    db.ingestionRound.update({ where: { id: roundId }, data: { venues: venues as unknown as object[] } }),
  ]);
}

function snapshotRow(roundId: string, s: MarketSnapshot) {
  return {
    roundId,
    exchange: s.exchange,
    market: s.market,
    venueMarketId: s.venueMarketId,
    base: s.base,
    venueBase: s.venueBase,
    contractMultiplier: s.contractMultiplier,
    quote: s.quote,
    settle: s.settle,
    fundingRate: s.fundingRate,
    predictedFundingRate: s.predictedFundingRate ?? null,
    rateCap: s.rateCap ?? null,
    rateFloor: s.rateFloor ?? null,
    fundingIntervalHours: s.fundingIntervalHours,
    fundingIntervalSource: s.fundingIntervalSource,
    nextFundingAt: s.nextFundingAt === null ? null : new Date(s.nextFundingAt),
    markPrice: s.markPrice,
    indexPrice: s.indexPrice,
    openInterestUsd: s.openInterestUsd,
    volume24hUsd: s.volume24hUsd,
    takerFee: s.takerFee,
    observedAt: new Date(s.observedAt),
  };
}

/** A stored RoundSnapshot row as the MarketSnapshot it was written from (the inverse of snapshotRow). */
export function fromSnapshotRow(row: RoundSnapshot): MarketSnapshot {
  const { id: _id, roundId: _roundId, fundingIntervalSource, nextFundingAt, observedAt, ...same } = row;
  return {
    ...same,
    fundingIntervalSource: fundingIntervalSource === null ? null : intervalSourceSchema.parse(fundingIntervalSource),
    nextFundingAt: nextFundingAt?.getTime() ?? null,
    observedAt: observedAt.getTime(),
  };
}
