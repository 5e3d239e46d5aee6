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
    insertSnapshots(db, roundId, snapshots),
    insertSettlements(db, findings.settlements),
    // A round replayed after a crash finds the same change again: the first record stands.
    db.fundingIntervalChange.createMany({ data: [...findings.intervalChanges], skipDuplicates: true }),
    upsertVenueHealth(db, venues, attemptedAt),
    db.ingestionRound.update({ where: { id: roundId }, data: { venues: venues as unknown as object[] } }),
  ]);
}

/** A column of values as text for `unnest(…::text[])`; null stays NULL. */
function textColumn<T>(rows: readonly T[], pick: (row: T) => string | number | null | undefined): (string | null)[] {
  return rows.map((row) => {
    const value = pick(row);
    return value === null || value === undefined ? null : String(value);
  });
}

const isoOrNull = (epochMs: number | null) => (epochMs === null ? null : new Date(epochMs).toISOString());

/**
 * The round's snapshots in one statement, each column one array parameter, whatever the row count.
 * Row-per-parameter inserts (createMany) need 22 parameters a row: at 15,000 markets a round they
 * exceed PostgreSQL's 65,535 and took over a second in batches. Numbers travel as text, which every
 * driver passes alike, and read back as the same doubles (JavaScript prints the shortest text that
 * round-trips).
 */
function insertSnapshots(db: Db, roundId: string, snapshots: readonly MarketSnapshot[]) {
  const col = (pick: (s: MarketSnapshot) => string | number | null | undefined) => textColumn(snapshots, pick);
  return db.$executeRaw`
    INSERT INTO "RoundSnapshot" ("roundId", exchange, market, "venueMarketId", base, "venueBase", "contractMultiplier", quote, settle,
      "fundingRate", "predictedFundingRate", "rateCap", "rateFloor", "fundingIntervalHours", "fundingIntervalSource", "nextFundingAt",
      "markPrice", "indexPrice", "openInterestUsd", "volume24hUsd", "takerFee", "observedAt")
    SELECT ${roundId}, r.exchange, r.market, r.venue_market_id, r.base, r.venue_base, r.multiplier::float8, r.quote, r.settle,
      r.rate::float8, r.predicted::float8, r.cap::float8, r.floor::float8, r.interval_hours::float8, r.interval_source,
      r.next_at::timestamp(3), r.mark::float8, r.index::float8, r.oi::float8, r.volume::float8, r.taker::float8, r.observed_at::timestamp(3)
    FROM unnest(
      ${col((s) => s.exchange)}::text[], ${col((s) => s.market)}::text[], ${col((s) => s.venueMarketId)}::text[],
      ${col((s) => s.base)}::text[], ${col((s) => s.venueBase)}::text[], ${col((s) => s.contractMultiplier)}::text[],
      ${col((s) => s.quote)}::text[], ${col((s) => s.settle)}::text[], ${col((s) => s.fundingRate)}::text[],
      ${col((s) => s.predictedFundingRate)}::text[], ${col((s) => s.rateCap)}::text[], ${col((s) => s.rateFloor)}::text[],
      ${col((s) => s.fundingIntervalHours)}::text[], ${col((s) => s.fundingIntervalSource)}::text[],
      ${col((s) => isoOrNull(s.nextFundingAt))}::text[], ${col((s) => s.markPrice)}::text[], ${col((s) => s.indexPrice)}::text[],
      ${col((s) => s.openInterestUsd)}::text[], ${col((s) => s.volume24hUsd)}::text[], ${col((s) => s.takerFee)}::text[],
      ${col((s) => isoOrNull(s.observedAt))}::text[]
    ) AS r(exchange, market, venue_market_id, base, venue_base, multiplier, quote, settle, rate, predicted, cap, floor,
      interval_hours, interval_source, next_at, mark, index, oi, volume, taker, observed_at)`;
}

/**
 * Each venue's health after the round, in one statement. A stale venue keeps its last success and
 * market count: that is what "stale" means.
 */
function upsertVenueHealth(db: Db, venues: readonly VenueRoundResult[], attemptedAt: Date) {
  const col = (pick: (v: VenueRoundResult) => string | number | null) => textColumn(venues, pick);
  const at = attemptedAt.toISOString();
  return db.$executeRaw`
    INSERT INTO "VenueHealth" AS h (id, status, "lastAttemptAt", "lastSuccessAt", "lastError", "marketsCount", "updatedAt")
    SELECT v.id, v.status, ${at}::timestamp(3), CASE WHEN v.status = 'ok' THEN ${at}::timestamp(3) END, v.error, v.markets::int, now()
    FROM unnest(${col((v) => v.exchange)}::text[], ${col((v) => v.status)}::text[], ${col((v) => v.error)}::text[], ${col((v) => v.markets)}::text[])
      AS v(id, status, error, markets)
    ON CONFLICT (id) DO UPDATE SET
      status = EXCLUDED.status,
      "lastAttemptAt" = EXCLUDED."lastAttemptAt",
      "lastError" = EXCLUDED."lastError",
      "lastSuccessAt" = CASE WHEN EXCLUDED.status = 'ok' THEN EXCLUDED."lastSuccessAt" ELSE h."lastSuccessAt" END,
      "marketsCount" = CASE WHEN EXCLUDED.status = 'ok' THEN EXCLUDED."marketsCount" ELSE h."marketsCount" END,
      "updatedAt" = now()`;
}

/** The settlements a round revealed, in one statement; a settlement already recorded stands. */
function insertSettlements(db: Db, settlements: readonly SettlementRow[]) {
  const col = (pick: (s: SettlementRow) => string | number | null) => textColumn(settlements, pick);
  return db.$executeRaw`
    INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
    SELECT r.exchange, r.market, r.base, r.time::timestamp(3), r.rate::float8, r.interval_hours::float8, r.source
    FROM unnest(
      ${col((s) => s.exchange)}::text[], ${col((s) => s.market)}::text[], ${col((s) => s.base)}::text[],
      ${col((s) => s.time.toISOString())}::text[], ${col((s) => s.rate)}::text[], ${col((s) => s.intervalHours)}::text[],
      ${col((s) => s.source)}::text[]
    ) AS r(exchange, market, base, time, rate, interval_hours, source)
    ON CONFLICT DO NOTHING`;
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
