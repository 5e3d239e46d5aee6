import type { Db } from "@/lib/db";
import { plainArrayLiteral, textArrayLiteral } from "@/lib/db/array-literal";
import { directSql, type SqlRunner, type SqlStatement } from "@/lib/db/direct-sql";
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

/** The stored settlements of `market` just older than `first` and just newer than `last`, with their intervals, in one query. */
async function storedNeighbours(sql: SqlRunner, market: HistoryMarket, first: number, last: number) {
  const rows = await sql.query<{ side: "before" | "after"; time: Date; rate: number; intervalHours: number | null }>({
    // Prepared: planning it over every month partition cost the database more than running it.
    name: "backfill-neighbours",
    text: `
    (SELECT 'before' AS side, time, rate, "intervalHours" FROM "FundingRate" WHERE exchange = $1 AND market = $2 AND time < $3::timestamp(3) ORDER BY time DESC LIMIT 1)
    UNION ALL
    (SELECT 'after' AS side, time, rate, "intervalHours" FROM "FundingRate" WHERE exchange = $1 AND market = $2 AND time > $4::timestamp(3) ORDER BY time LIMIT 1)`,
    values: [market.exchange, market.market, new Date(first).toISOString(), new Date(last).toISOString()],
  });
  const settlement = (side: "before" | "after"): HistorySettlement | null => {
    const row = rows.find((r) => r.side === side);
    return row ? { time: row.time.getTime(), rate: row.rate, intervalHours: row.intervalHours } : null;
  };
  return { before: settlement("before"), after: settlement("after") };
}

export interface StoredPage {
  /** Settlements new to the table (one the live rounds or an earlier run recorded stands, uncounted). */
  inserted: number;
  intervalChanges: number;
}

/**
 * Stores pages of `market`'s settlements (ascending, deduplicated, inside one walk's window) and
 * moves its cursor from `from` to `to` atomically: a process killed at any moment leaves both or
 * neither, so the next run reads the same pages again or the ones after them, never leaving a gap or
 * counting a row twice. The cursor moves only from where this run read it (`from`): had another run
 * moved it meanwhile, nothing is written (CursorMovedError).
 *
 * Two round trips (the neighbours, then one statement writing rows and cursor), since a year of
 * every market is hundreds of thousands of pages. The write commits asynchronously
 * (synchronous_commit off for it alone): a database crash may lose the last instant's pages, rows
 * and cursor together, which the next run reads again; a killed process loses nothing committed.
 */
export async function storePages(
  db: Db,
  market: HistoryMarket,
  from: CursorState,
  to: CursorState & { status: CursorStatus },
  settlements: readonly HistorySettlement[],
  now: number,
): Promise<StoredPage> {
  const sql = directSql(db);
  let filled: readonly HistorySettlement[] = [];
  let changes: IntervalChangeRow[] = [];
  if (settlements.length > 0) {
    const first = settlements[0]!.time;
    const last = settlements.at(-1)!.time;
    // The page's months exist before its rows arrive (their DDL apart from the page's statement),
    // so they land in their month, not the default partition.
    await ensureSettlementPartitions(sql, first, last);
    // The stored settlements either side, so intervals and their changes are read across pages too.
    const { before, after } = await storedNeighbours(sql, market, first, last);
    const run = [...(before ? [before] : []), ...settlements, ...(after ? [after] : [])];
    const withIntervals = fillIntervals(run, possibleIntervals(market.exchange));
    filled = withIntervals.slice(before ? 1 : 0, (before ? 1 : 0) + settlements.length);
    changes = intervalChangesFromHistory(market, withIntervals);
  }
  const write = async (runner: SqlRunner): Promise<StoredPage> => {
    const [row] = await runner.query<{ inserted: number; moved: number }>(pageStatement(market, from, to, filled, now));
    if (!row || row.moved === 0) throw new CursorMovedError(market);
    if (changes.length > 0) await runner.query(insertIntervalChanges(changes));
    return { inserted: row.inserted, intervalChanges: changes.length };
  };
  // A page that changes an interval (rare) writes the change in the same transaction.
  return changes.length > 0 ? sql.transaction(write) : write(sql);
}

/**
 * The page's settlements (source `backfill`; one already recorded, by a live round or an earlier
 * run, stands) and the cursor's move, as one statement: the cursor row is locked first and must
 * still stand where this run read it, or neither is written (`moved` 0).
 */
function pageStatement(market: HistoryMarket, from: CursorState, to: CursorState & { status: CursorStatus }, settlements: readonly HistorySettlement[], now: number): SqlStatement {
  // Ascending: the first is the oldest.
  const [oldest, newest] = settlements.length ? [settlements[0]!.time, settlements.at(-1)!.time] : [null, null];
  return {
    // Prepared: parsed and planned once per connection, not once per page.
    name: "backfill-page",
    text: `
    WITH async AS (SELECT set_config('synchronous_commit', 'off', true)),
    held AS MATERIALIZED (
      SELECT 1 FROM "BackfillCursor"
      WHERE exchange = $1 AND market = $2
        AND "walkSince" IS NOT DISTINCT FROM $12::timestamp(3) AND "pageCursor" IS NOT DISTINCT FROM $13
        AND "coveredSince" IS NOT DISTINCT FROM $14::timestamp(3) AND "coveredUntil" IS NOT DISTINCT FROM $15::timestamp(3)
      FOR UPDATE
    ),
    inserted AS (
      INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
      SELECT $1, $2, $16, r.time::timestamp(3), r.rate::float8, r.interval_hours::float8, 'backfill'
      FROM unnest($17::text[], $18::text[], $19::text[]) AS r(time, rate, interval_hours)
      WHERE EXISTS (SELECT 1 FROM held)
      ON CONFLICT DO NOTHING
      RETURNING 1
    ),
    moved AS (
      UPDATE "BackfillCursor" SET
        status = $3, "coveredSince" = $4::timestamp(3), "coveredUntil" = $5::timestamp(3), "walkSince" = $6::timestamp(3),
        "walkUntil" = $7::timestamp(3), "pageCursor" = $8, rows = rows + (SELECT count(*) FROM inserted)::int,
        "oldestSettlement" = CASE WHEN $9::timestamp(3) IS NULL THEN "oldestSettlement" ELSE LEAST("oldestSettlement", $9::timestamp(3)) END,
        "newestSettlement" = CASE WHEN $10::timestamp(3) IS NULL THEN "newestSettlement" ELSE GREATEST("newestSettlement", $10::timestamp(3)) END,
        attempts = 0, "lastError" = NULL, "updatedAt" = $11::timestamp(3)
      WHERE exchange = $1 AND market = $2 AND EXISTS (SELECT 1 FROM held)
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM inserted)::int AS inserted, (SELECT count(*) FROM moved)::int AS moved, (SELECT count(*) FROM async)::int AS async`,
    values: [
      market.exchange,
      market.market,
      to.status,
      iso(to.coveredSince),
      iso(to.coveredUntil),
      iso(to.walkSince),
      iso(to.walkUntil),
      to.pageCursor,
      iso(oldest),
      iso(newest),
      new Date(now).toISOString(),
      iso(from.walkSince),
      from.pageCursor,
      iso(from.coveredSince),
      iso(from.coveredUntil),
      market.base,
      plainArrayLiteral(settlements, (s) => new Date(s.time).toISOString()),
      plainArrayLiteral(settlements, (s) => s.rate),
      plainArrayLiteral(settlements, (s) => s.intervalHours),
    ],
  };
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
