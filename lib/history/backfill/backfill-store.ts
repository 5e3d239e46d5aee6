import type { Db } from "@/lib/db";
import { plainArrayLiteral, textArrayLiteral } from "@/lib/db/array-literal";
import { directSql, type SqlRunner } from "@/lib/db/direct-sql";
import { ensureSettlementPartitions } from "@/lib/history/store/settlement-partitions";
import { insertIntervalChanges } from "@/lib/market/ingest/store-round";
import type { IntervalChangeRow } from "@/lib/market/model/funding-interval-change";
import { VENUE_IDS, type VenueId } from "@/lib/market/model/types";
import { fillIntervals, historyIntervals, intervalChangesFromHistory } from "../derive-intervals";
import type { HistoryMarket, HistorySettlement } from "../history-types";
import type { CursorState } from "./backfill-cursor";
import type { CursorGroup, CursorStatus } from "./backfill-progress";

/** A market's cursor as the backfill reads it. */
export interface BackfillCursorRow extends CursorState {
  market: HistoryMarket;
  status: CursorStatus;
  rows: number;
  attempts: number;
  nextAttemptAt: number;
}

interface CursorRecord {
  exchange: string;
  market: string;
  base: string;
  venueMarketId: string;
  status: CursorStatus;
  coveredSince: Date | null;
  coveredUntil: Date | null;
  walkSince: Date | null;
  walkUntil: Date | null;
  pageCursor: string | null;
  rows: number;
  attempts: number;
  nextAttemptAt: Date;
}

const ms = (date: Date | null) => date?.getTime() ?? null;
const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

function fromRecord(row: CursorRecord): BackfillCursorRow {
  return {
    market: { exchange: row.exchange, market: row.market, base: row.base, venueMarketId: row.venueMarketId },
    status: row.status,
    coveredSince: ms(row.coveredSince),
    coveredUntil: ms(row.coveredUntil),
    walkSince: ms(row.walkSince),
    walkUntil: ms(row.walkUntil),
    pageCursor: row.pageCursor,
    rows: row.rows,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt.getTime(),
  };
}

/**
 * The markets of `exchange` the live rounds saw last: those of its newest stored round (a venue's
 * listing, as the backfill plans it). A market listed since joins at the next run; one delisted
 * keeps its cursor. The rounds are walked newest first (the startedAt index), each probed for the
 * venue's rows (the roundId, exchange index), so a venue stale for days costs a probe per round.
 */
export async function latestVenueMarkets(db: Db, exchange: string): Promise<HistoryMarket[]> {
  return directSql(db).query<HistoryMarket>({
    text: `
    SELECT exchange, market, "venueMarketId", base FROM "RoundSnapshot"
    WHERE exchange = $1 AND "roundId" = (
      SELECT r.id FROM "IngestionRound" r
      WHERE EXISTS (SELECT 1 FROM "RoundSnapshot" x WHERE x."roundId" = r.id AND x.exchange = $1)
      ORDER BY r."startedAt" DESC LIMIT 1)
    ORDER BY market`,
    values: [exchange],
  });
}

/** Creates the cursors of markets not yet known (pending, due now); known ones stand. */
export async function seedCursors(db: Db, markets: readonly HistoryMarket[], now: number): Promise<void> {
  if (markets.length === 0) return;
  const col = (pick: (m: HistoryMarket) => string) => textArrayLiteral(markets, pick);
  await directSql(db).query({
    text: `
    INSERT INTO "BackfillCursor" (exchange, market, base, "venueMarketId", "nextAttemptAt", "updatedAt")
    SELECT m.*, $5::timestamp(3), $5::timestamp(3) FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS m
    ON CONFLICT DO NOTHING`,
    values: [col((m) => m.exchange), col((m) => m.market), col((m) => m.base), col((m) => m.venueMarketId), new Date(now).toISOString()],
  });
}

/**
 * The cursors of `exchange` that may have work at `now`: pending ones whose retry time has come, and
 * done ones (a deeper `since` or a forward catch-up may give them a new walk). `withFailed` takes
 * failed ones too (the CLI, run by an operator, tries them again).
 */
export async function workableCursors(db: Db, exchange: string, now: number, options: { withFailed?: boolean; markets?: readonly string[] } = {}): Promise<BackfillCursorRow[]> {
  const statuses = options.withFailed ? ["pending", "done", "failed"] : ["pending", "done"];
  const rows = await directSql(db).query<CursorRecord>({
    text: `
    SELECT exchange, market, base, "venueMarketId", status, "coveredSince", "coveredUntil", "walkSince", "walkUntil", "pageCursor",
           rows, attempts, "nextAttemptAt"
    FROM "BackfillCursor"
    WHERE exchange = $1 AND status = ANY($2::text[]) AND "nextAttemptAt" <= $3::timestamp(3)
      AND ($4::text[] IS NULL OR market = ANY($4::text[]))
    ORDER BY market`,
    values: [exchange, textArrayLiteral(statuses, (s) => s), new Date(now).toISOString(), options.markets ? textArrayLiteral(options.markets, (m) => m) : null],
  });
  return rows.map(fromRecord);
}

/** The earliest time a pending cursor of `exchange` is due (null: none is pending). */
export async function nextDueAt(db: Db, exchange: string): Promise<number | null> {
  const [row] = await directSql(db).query<{ due: Date | null }>({
    text: `SELECT min("nextAttemptAt") AS due FROM "BackfillCursor" WHERE exchange = $1 AND status = 'pending'`,
    values: [exchange],
  });
  return ms(row?.due ?? null);
}

/** Thrown inside a page's transaction when another run moved the cursor first: the page is not stored twice. */
export class CursorMovedError extends Error {
  constructor(market: HistoryMarket) {
    super(`The backfill cursor of ${market.exchange} ${market.market} was moved by another run`);
    this.name = "CursorMovedError";
  }
}

/** The intervals common to venues, for an exchange outside the registry (none has a reader in production). */
const COMMON_INTERVALS = [1, 2, 4, 8];

function possibleIntervals(exchange: string): number[] {
  return (VENUE_IDS as readonly string[]).includes(exchange) ? historyIntervals(exchange as VenueId) : COMMON_INTERVALS;
}

/** The stored settlement of `market` just older than `time`, with its interval. */
async function storedBefore(tx: SqlRunner, market: HistoryMarket, time: number): Promise<HistorySettlement | null> {
  const [row] = await tx.query<{ time: Date; rate: number; intervalHours: number | null }>({
    text: `SELECT time, rate, "intervalHours" FROM "FundingRate" WHERE exchange = $1 AND market = $2 AND time < $3::timestamp(3) ORDER BY time DESC LIMIT 1`,
    values: [market.exchange, market.market, new Date(time).toISOString()],
  });
  return row ? { time: row.time.getTime(), rate: row.rate, intervalHours: row.intervalHours } : null;
}

/** The stored settlement of `market` just newer than `time`. */
async function storedAfter(tx: SqlRunner, market: HistoryMarket, time: number): Promise<HistorySettlement | null> {
  const [row] = await tx.query<{ time: Date; rate: number; intervalHours: number | null }>({
    text: `SELECT time, rate, "intervalHours" FROM "FundingRate" WHERE exchange = $1 AND market = $2 AND time > $3::timestamp(3) ORDER BY time LIMIT 1`,
    values: [market.exchange, market.market, new Date(time).toISOString()],
  });
  return row ? { time: row.time.getTime(), rate: row.rate, intervalHours: row.intervalHours } : null;
}

export interface StoredPage {
  /** Settlements new to the table (one the live rounds or an earlier run recorded stands, uncounted). */
  inserted: number;
  intervalChanges: number;
}

/**
 * Stores one page of `market`'s settlements (ascending, deduplicated, inside the walk's window) and
 * moves its cursor from `from` to `to`, in one transaction: a process killed at any moment leaves
 * both or neither, so the next run reads the same page again or the one after it, never leaving a
 * gap or counting a row twice. The cursor moves only from where this run read it (`from`): had
 * another run moved it meanwhile, nothing is written (CursorMovedError).
 */
export async function storePage(
  db: Db,
  market: HistoryMarket,
  from: CursorState,
  to: CursorState & { status: CursorStatus },
  settlements: readonly HistorySettlement[],
  now: number,
): Promise<StoredPage> {
  // The page's months exist before its rows arrive (made outside the transaction: a partition's DDL
  // must not wait on the page's locks), so they land in their month, not the default partition.
  if (settlements.length > 0) await ensureSettlementPartitions(directSql(db), settlements[0]!.time, settlements.at(-1)!.time);
  return directSql(db).transaction(async (tx) => {
    let inserted = 0;
    let changes: IntervalChangeRow[] = [];
    if (settlements.length > 0) {
      // The stored settlements either side, so intervals and their changes are read across pages too.
      const before = await storedBefore(tx, market, settlements[0]!.time);
      const after = await storedAfter(tx, market, settlements.at(-1)!.time);
      const run = [...(before ? [before] : []), ...settlements, ...(after ? [after] : [])];
      const withIntervals = fillIntervals(run, possibleIntervals(market.exchange));
      const filled = withIntervals.slice(before ? 1 : 0, (before ? 1 : 0) + settlements.length);
      changes = intervalChangesFromHistory(market, withIntervals);
      inserted = await insertBackfilled(tx, market, filled);
      if (changes.length > 0) await tx.query(insertIntervalChanges(changes));
    }
    const times = settlements.map((s) => s.time);
    const [moved] = await tx.query<{ n: number }>({
      text: `
      UPDATE "BackfillCursor" SET
        status = $3, "coveredSince" = $4::timestamp(3), "coveredUntil" = $5::timestamp(3), "walkSince" = $6::timestamp(3),
        "walkUntil" = $7::timestamp(3), "pageCursor" = $8, rows = rows + $9::int,
        "oldestSettlement" = CASE WHEN $10::timestamp(3) IS NULL THEN "oldestSettlement" ELSE LEAST("oldestSettlement", $10::timestamp(3)) END,
        "newestSettlement" = CASE WHEN $11::timestamp(3) IS NULL THEN "newestSettlement" ELSE GREATEST("newestSettlement", $11::timestamp(3)) END,
        attempts = 0, "lastError" = NULL, "updatedAt" = $12::timestamp(3)
      WHERE exchange = $1 AND market = $2
        AND "walkSince" IS NOT DISTINCT FROM $13::timestamp(3) AND "pageCursor" IS NOT DISTINCT FROM $14
        AND "coveredSince" IS NOT DISTINCT FROM $15::timestamp(3) AND "coveredUntil" IS NOT DISTINCT FROM $16::timestamp(3)
      RETURNING 1 AS n`,
      values: [
        market.exchange,
        market.market,
        to.status,
        iso(to.coveredSince),
        iso(to.coveredUntil),
        iso(to.walkSince),
        iso(to.walkUntil),
        to.pageCursor,
        inserted,
        times.length ? iso(Math.min(...times)) : null,
        times.length ? iso(Math.max(...times)) : null,
        new Date(now).toISOString(),
        iso(from.walkSince),
        from.pageCursor,
        iso(from.coveredSince),
        iso(from.coveredUntil),
      ],
    });
    if (!moved) throw new CursorMovedError(market);
    return { inserted, intervalChanges: changes.length };
  });
}

/** The page's settlements with source `backfill`; a settlement already recorded (by a live round or an earlier run) stands. */
async function insertBackfilled(tx: SqlRunner, market: HistoryMarket, settlements: readonly HistorySettlement[]): Promise<number> {
  const [row] = await tx.query<{ n: number }>({
    text: `
    WITH inserted AS (
      INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
      SELECT $1, $2, $3, r.time::timestamp(3), r.rate::float8, r.interval_hours::float8, 'backfill'
      FROM unnest($4::text[], $5::text[], $6::text[]) AS r(time, rate, interval_hours)
      ON CONFLICT DO NOTHING
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM inserted`,
    values: [
      market.exchange,
      market.market,
      market.base,
      plainArrayLiteral(settlements, (s) => new Date(s.time).toISOString()),
      plainArrayLiteral(settlements, (s) => s.rate),
      plainArrayLiteral(settlements, (s) => s.intervalHours),
    ],
  });
  return row?.n ?? 0;
}

/** Marks a cursor's state without a page: done or delisted with nothing to read, or a failure to retry at `nextAttemptAt`. */
export async function markCursor(
  db: Db,
  market: HistoryMarket,
  change: { status: CursorStatus; attempts?: number; lastError?: string | null; nextAttemptAt?: number },
  now: number,
): Promise<void> {
  await directSql(db).query({
    text: `
    UPDATE "BackfillCursor" SET status = $3, attempts = COALESCE($4::int, attempts), "lastError" = $5,
      "nextAttemptAt" = COALESCE($6::timestamp(3), "nextAttemptAt"), "updatedAt" = $7::timestamp(3)
    WHERE exchange = $1 AND market = $2`,
    values: [
      market.exchange,
      market.market,
      change.status,
      change.attempts ?? null,
      change.lastError?.slice(0, 1_000) ?? null,
      change.nextAttemptAt === undefined ? null : new Date(change.nextAttemptAt).toISOString(),
      new Date(now).toISOString(),
    ],
  });
}

/** Every venue's cursors counted by status: what progress is made of. */
export async function cursorGroups(db: Db, now: number, exchanges?: readonly string[]): Promise<CursorGroup[]> {
  return directSql(db).query<CursorGroup>({
    text: `
    SELECT exchange, status, count(*)::int AS markets,
           (count(*) FILTER (WHERE attempts > 0 AND "nextAttemptAt" > $1::timestamp(3)))::int AS retrying,
           COALESCE(sum(rows), 0)::int AS rows, min("oldestSettlement") AS "oldestSettlement"
    FROM "BackfillCursor"
    WHERE $2::text[] IS NULL OR exchange = ANY($2::text[])
    GROUP BY exchange, status`,
    values: [new Date(now).toISOString(), exchanges ? textArrayLiteral(exchanges, (e) => e) : null],
  });
}
