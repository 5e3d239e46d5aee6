import type { Db } from "@/lib/db";
import { ColumnParams, float8ArrayParam, timestampArrayParam } from "@/lib/db/array-binary";
import { textArrayLiteral } from "@/lib/db/array-literal";
import { asOneStatement, directSql, type SqlStatement } from "@/lib/db/direct-sql";
import type { RoundSnapshot } from "@/lib/db/generated/client";
import { intervalSourceSchema, tradingHoursSchema, underlyingClassSchema, type MarketSnapshot, type VenueId, type VenueSnapshotResult } from "../model/types";
import type { PreviousObservation, SettlementRow } from "./derive-settlements";
import type { IntervalChangeRow } from "../model/funding-interval-change";
import { ensureSettlementPartitions } from "@/lib/history/store/settlement-partitions";
import { runInSlices, type Sliced } from "@/lib/time-slices";

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
export const PREVIOUS_WITHIN_MS = 24 * 3_600_000;

/** A previous observation with the start of the round that stored it (epoch ms). */
export interface StoredObservation extends PreviousObservation {
  roundStartedAt: number;
}

/**
 * Each venue's newest stored observations: the markets of the latest earlier round (within a day)
 * in which that venue answered and whose snapshots of it were stored; a round killed before
 * storing recorded the venue's answer but no snapshots, so an older one is taken. One statement,
 * sent as the round starts so the database answers while the venues are fetched: per venue, the
 * rounds newest first (the startedAt index) until one holds its rows (the roundId, exchange index),
 * so the cost does not grow with the history kept, even for a venue stale for hours.
 */
export function previousObservations(
  db: Db,
  venues: readonly VenueId[],
  options: { excludeRoundId: string; now: Date },
): Promise<StoredObservation[]> {
  // The times come as epoch milliseconds, made so by the database rather than parsed here.
  return directSql(db).query<StoredObservation>({
    text: `
    SELECT s.exchange, s.market, s.base, s."fundingRate", s."fundingIntervalHours",
           (extract(epoch FROM s."nextFundingAt") * 1000)::float8 AS "nextFundingAt",
           (extract(epoch FROM s."observedAt") * 1000)::float8 AS "observedAt",
           (extract(epoch FROM latest."startedAt") * 1000)::float8 AS "roundStartedAt"
    FROM unnest($1::text[]) AS venue(exchange)
    CROSS JOIN LATERAL (
      SELECT r.id, r."startedAt" FROM "IngestionRound" r
      WHERE r."startedAt" >= $2::timestamp(3) AND r.id <> $3
        AND r.venues @> jsonb_build_array(jsonb_build_object('exchange', venue.exchange, 'status', 'ok'))
        AND EXISTS (SELECT 1 FROM "RoundSnapshot" x WHERE x."roundId" = r.id AND x.exchange = venue.exchange)
      ORDER BY r."startedAt" DESC
      LIMIT 1
    ) latest
    JOIN "RoundSnapshot" s ON s."roundId" = latest.id AND s.exchange = venue.exchange`,
    values: [venues, new Date(options.now.getTime() - PREVIOUS_WITHIN_MS).toISOString(), options.excludeRoundId],
  });
}

/** What a round found beyond its observations, derived by comparing them with the previous ones. */
export interface RoundFindings {
  settlements: readonly SettlementRow[];
  intervalChanges: readonly IntervalChangeRow[];
}

/**
 * Writes a round's observations, the settlements and interval changes they reveal and each
 * venue's health in one statement, so in one transaction: a round is stored whole or not at all.
 * Through the driver itself (lib/db/direct-sql.ts): the observations alone are 21 arrays of 16,000
 * values a round; and as one statement, sent at once, so the database stores while the round ranks.
 * Its 16,000 snapshots' columns are written out in slices (lib/time-slices.ts): at once, they held
 * the round's thread, which also serves requests, for about a tenth of a second. Sent by storeRound.
 */
export async function roundStatement(
  roundId: string,
  snapshots: readonly MarketSnapshot[],
  venues: readonly VenueRoundResult[],
  findings: RoundFindings,
  attemptedAt: Date,
  sliceMs?: number,
  keptColumns = new ColumnParams(),
): Promise<SqlStatement> {
  return asOneStatement([
    await runInSlices(insertSnapshots(roundId, snapshots, keptColumns), sliceMs),
    insertSettlements(findings.settlements),
    insertIntervalChanges(findings.intervalChanges),
    upsertVenueHealth(venues, attemptedAt),
    roundVenues(roundId, venues),
  ]);
}

/** Stores a round: `roundStatement`'s statement, its settlements' month partitions made first. */
export async function storeRound(db: Db, statement: SqlStatement, findings: RoundFindings): Promise<void> {
  if (findings.settlements.length > 0) {
    // Their month's partition first (made once per process, then free), so they do not land in the default one.
    const times = findings.settlements.map((s) => s.time.getTime());
    await ensureSettlementPartitions(directSql(db), Math.min(...times), Math.max(...times));
  }
  await directSql(db).query(statement);
}

/** Each venue's result on the round's row: its progress while fetching, then what was stored. */
export function roundVenues(roundId: string, venues: readonly VenueRoundResult[]): SqlStatement {
  return { text: `UPDATE "IngestionRound" SET venues = $1::jsonb WHERE id = $2`, values: [JSON.stringify(venues), roundId] };
}

/**
 * The round's progress while its venues answer, written only over a shorter list: a progress write
 * that lands after the round's final word (storeRound's or a failure's, which list every venue
 * known) changes nothing, so storing need not wait for the write in flight, whose answer this thread
 * reads only once the ranking lets it.
 */
export function roundProgress(roundId: string, venues: readonly VenueRoundResult[]): SqlStatement {
  return {
    text: `UPDATE "IngestionRound" SET venues = $1::jsonb WHERE id = $2 AND jsonb_array_length(venues) < $3`,
    values: [JSON.stringify(venues), roundId, venues.length],
  };
}

/**
 * The round's snapshots in one statement, each column one array parameter, whatever the row count.
 * Row-per-parameter inserts (createMany) need 22 parameters a row: at 15,000 markets a round they
 * exceed PostgreSQL's 65,535 and took over a second in batches. Each array is read as its column's
 * type at once: read as text and cast value by value, the database took a fifth longer to store a
 * round, beside the ranking on the same cores. The arrays are unnested in the select list, side by
 * side (a shorter one's rows would be nulls, as `unnest(a, b, …)` in FROM makes them): in FROM,
 * PostgreSQL first copies each array's rows into a store of their own, and inserting 26,000 rows
 * of 23 arrays took 240–350 ms of its CPU against 150–170 (PostgreSQL 15, psql, alternated).
 */
function* insertSnapshots(roundId: string, snapshots: readonly MarketSnapshot[], keptColumns: ColumnParams): Sliced<SqlStatement> {
  // Every column in PostgreSQL's binary array form (lib/db/array-binary.ts). What describes a
  // market (names, multiplier, bounds, interval, fee) is written out only when it differs from the
  // last round's (`keptColumns`); the figures a venue moves every round always.
  const kept = (name: string, pick: (s: MarketSnapshot) => string | null | undefined) => () => keptColumns.text(name, snapshots, pick);
  const keptNumber = (name: string, pick: (s: MarketSnapshot) => number | null | undefined) => () => keptColumns.float8(name, snapshots, pick);
  const moving = (pick: (s: MarketSnapshot) => number | null | undefined) => () => float8ArrayParam(snapshots, pick);
  const movingTime = (pick: (s: MarketSnapshot) => number | null | undefined) => () => timestampArrayParam(snapshots, pick);
  const columns = [
    kept("exchange", (s) => s.exchange),
    kept("market", (s) => s.market),
    kept("venueMarketId", (s) => s.venueMarketId),
    kept("base", (s) => s.base),
    kept("venueBase", (s) => s.venueBase),
    keptNumber("contractMultiplier", (s) => s.contractMultiplier),
    kept("quote", (s) => s.quote),
    kept("settle", (s) => s.settle),
    moving((s) => s.fundingRate),
    moving((s) => s.predictedFundingRate),
    keptNumber("rateCap", (s) => s.rateCap),
    keptNumber("rateFloor", (s) => s.rateFloor),
    keptNumber("fundingIntervalHours", (s) => s.fundingIntervalHours),
    kept("fundingIntervalSource", (s) => s.fundingIntervalSource),
    movingTime((s) => s.nextFundingAt),
    moving((s) => s.markPrice),
    moving((s) => s.indexPrice),
    moving((s) => s.openInterestUsd),
    moving((s) => s.volume24hUsd),
    keptNumber("takerFee", (s) => s.takerFee),
    movingTime((s) => s.observedAt),
    kept("underlyingClass", (s) => s.underlyingClass ?? null),
    kept("tradingHours", (s) => s.tradingHours ?? null),
  ];
  const values: (string | Buffer)[] = [roundId];
  // A pause point after each column: a column of 16,000 values is a few milliseconds.
  for (const column of columns) {
    values.push(column());
    yield;
  }
  return {
    text: `
    INSERT INTO "RoundSnapshot" ("roundId", exchange, market, "venueMarketId", base, "venueBase", "contractMultiplier", quote, settle,
      "fundingRate", "predictedFundingRate", "rateCap", "rateFloor", "fundingIntervalHours", "fundingIntervalSource", "nextFundingAt",
      "markPrice", "indexPrice", "openInterestUsd", "volume24hUsd", "takerFee", "observedAt", "underlyingClass", "tradingHours")
    SELECT $1, unnest($2::text[]), unnest($3::text[]), unnest($4::text[]), unnest($5::text[]), unnest($6::text[]), unnest($7::float8[]),
      unnest($8::text[]), unnest($9::text[]), unnest($10::float8[]), unnest($11::float8[]), unnest($12::float8[]), unnest($13::float8[]),
      unnest($14::float8[]), unnest($15::text[]), unnest($16::timestamp(3)[]), unnest($17::float8[]), unnest($18::float8[]),
      unnest($19::float8[]), unnest($20::float8[]), unnest($21::float8[]), unnest($22::timestamp(3)[]), unnest($23::text[]), unnest($24::text[])`,
    values,
  };
}

/**
 * Each venue's health after the round, in one statement. A stale venue keeps its last success and
 * market count: that is what "stale" means.
 */
function upsertVenueHealth(venues: readonly VenueRoundResult[], attemptedAt: Date): SqlStatement {
  const col = (pick: (v: VenueRoundResult) => string | number | null) => textArrayLiteral(venues, pick);
  return {
    text: `
    INSERT INTO "VenueHealth" AS h (id, status, "lastAttemptAt", "lastSuccessAt", "lastError", "marketsCount", "updatedAt")
    SELECT v.id, v.status, $1::timestamp(3), CASE WHEN v.status = 'ok' THEN $1::timestamp(3) END, v.error, v.markets::int, now()
    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS v(id, status, error, markets)
    ON CONFLICT (id) DO UPDATE SET
      status = EXCLUDED.status,
      "lastAttemptAt" = EXCLUDED."lastAttemptAt",
      "lastError" = EXCLUDED."lastError",
      "lastSuccessAt" = CASE WHEN EXCLUDED.status = 'ok' THEN EXCLUDED."lastSuccessAt" ELSE h."lastSuccessAt" END,
      "marketsCount" = CASE WHEN EXCLUDED.status = 'ok' THEN EXCLUDED."marketsCount" ELSE h."marketsCount" END,
      "updatedAt" = now()`,
    values: [attemptedAt.toISOString(), col((v) => v.exchange), col((v) => v.status), col((v) => v.error), col((v) => v.markets)],
  };
}

/**
 * The settlements a round revealed, in one statement (its arrays unnested in the select list, as
 * the snapshots'); a settlement already recorded stands.
 */
function insertSettlements(settlements: readonly SettlementRow[]): SqlStatement {
  const col = (pick: (s: SettlementRow) => string | number | null) => textArrayLiteral(settlements, pick);
  return {
    text: `
    INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
    SELECT unnest($1::text[]), unnest($2::text[]), unnest($3::text[]), unnest($4::text[])::timestamp(3), unnest($5::text[])::float8,
      unnest($6::text[])::float8, unnest($7::text[])
    ON CONFLICT DO NOTHING`,
    values: [
      col((s) => s.exchange),
      col((s) => s.market),
      col((s) => s.base),
      col((s) => s.time.toISOString()),
      col((s) => s.rate),
      col((s) => s.intervalHours),
      col((s) => s.source),
    ],
  };
}

/**
 * Interval changes, as a round detects them or a venue's history reveals them; a round replayed
 * after a crash (or a page read again) finds the same change again, and the first record stands.
 */
export function insertIntervalChanges(changes: readonly IntervalChangeRow[]): SqlStatement {
  const col = (pick: (c: IntervalChangeRow) => string | number) => textArrayLiteral(changes, pick);
  return {
    text: `
    INSERT INTO "FundingIntervalChange" (exchange, market, base, "effectiveAt", "fromHours", "toHours", source, "detectedAt")
    SELECT c.exchange, c.market, c.base, c.effective_at::timestamp(3), c.from_hours::float8, c.to_hours::float8, c.source, c.detected_at::timestamp(3)
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
      AS c(exchange, market, base, effective_at, from_hours, to_hours, source, detected_at)
    ON CONFLICT DO NOTHING`,
    values: [
      col((c) => c.exchange),
      col((c) => c.market),
      col((c) => c.base),
      col((c) => c.effectiveAt.toISOString()),
      col((c) => c.fromHours),
      col((c) => c.toHours),
      col((c) => c.source),
      col((c) => c.detectedAt.toISOString()),
    ],
  };
}

/** A stored RoundSnapshot row as the MarketSnapshot it was written from (the inverse of snapshotRow). */
export function fromSnapshotRow(row: RoundSnapshot): MarketSnapshot {
  const { id: _id, roundId: _roundId, fundingIntervalSource, nextFundingAt, observedAt, underlyingClass, tradingHours, ...same } = row;
  return {
    ...same,
    fundingIntervalSource: fundingIntervalSource === null ? null : intervalSourceSchema.parse(fundingIntervalSource),
    nextFundingAt: nextFundingAt?.getTime() ?? null,
    observedAt: observedAt.getTime(),
    // Absent, not null, as a live snapshot has them: a crypto market traded around the clock.
    ...(underlyingClass === null ? {} : { underlyingClass: underlyingClassSchema.parse(underlyingClass) }),
    ...(tradingHours === null ? {} : { tradingHours: tradingHoursSchema.parse(tradingHours) }),
  };
}
