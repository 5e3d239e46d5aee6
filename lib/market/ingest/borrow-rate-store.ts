import type { Db } from "@/lib/db";
import { directSql, type SqlStatement } from "@/lib/db/direct-sql";
import { annualisedBorrowPct, borrowPeriodSchema, type BorrowPeriod, type SpotLeg } from "../carry/spot-leg";
import type { SpotVenueResult } from "../carry/fetch-spot-legs";

const HOUR_MS = 3_600_000;

/** One stored borrow rate: the hour's last observation of a venue's rate for an asset. */
export interface StoredBorrowRate {
  exchange: string;
  asset: string;
  time: Date;
  rate: number;
  period: BorrowPeriod;
  aprPct: number;
  borrowable: number | null;
  source: string;
}

/**
 * The hourly rows the legs' borrow rates make: one per venue and asset (the legs of one base on
 * several quotes share it), at the start of the hour `at` falls in.
 */
function hourlyRows(legs: readonly SpotLeg[], at: Date): StoredBorrowRate[] {
  const time = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
  const rows = new Map<string, StoredBorrowRate>();
  for (const leg of legs) {
    const borrow = leg.borrow;
    if (!borrow) continue;
    rows.set(`${leg.exchange}\u0000${leg.base}`, {
      exchange: leg.exchange,
      asset: leg.base,
      time,
      rate: borrow.rate,
      period: borrow.period,
      aprPct: annualisedBorrowPct(borrow.rate, borrow.period),
      borrowable: borrow.borrowable,
      source: borrow.source,
    });
  }
  return [...rows.values()];
}

/** The upsert of the hourly rows: a later round of the hour overwrites the hour's row with its newer rate. */
function upsertBorrowRates(rows: readonly StoredBorrowRate[], observedAt: Date): SqlStatement {
  const col = <T>(pick: (row: StoredBorrowRate) => T) => rows.map(pick);
  return {
    text: `
    INSERT INTO "BorrowRate" (exchange, asset, time, rate, period, "aprPct", borrowable, source, "observedAt")
    SELECT r.exchange, r.asset, r.time::timestamp(3), r.rate::float8, r.period, r.apr::float8, r.borrowable::float8, r.source, $9::timestamp(3)
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
      AS r(exchange, asset, time, rate, period, apr, borrowable, source)
    ON CONFLICT (exchange, asset, time) DO UPDATE SET
      rate = EXCLUDED.rate, period = EXCLUDED.period, "aprPct" = EXCLUDED."aprPct",
      borrowable = EXCLUDED.borrowable, source = EXCLUDED.source, "observedAt" = EXCLUDED."observedAt"`,
    values: [
      col((r) => r.exchange),
      col((r) => r.asset),
      col((r) => r.time.toISOString()),
      col((r) => String(r.rate)),
      col((r) => r.period),
      col((r) => String(r.aprPct)),
      col((r) => (r.borrowable === null ? null : String(r.borrowable))),
      col((r) => r.source),
      observedAt.toISOString(),
    ],
  };
}

/** Stores the borrow rates of the venues that answered; returns how many hourly rows it wrote. */
export async function storeBorrowRates(db: Db, results: readonly SpotVenueResult[], at: Date): Promise<number> {
  const rows = hourlyRows(
    results.flatMap((r) => (r.status === "ok" ? r.legs : [])),
    at,
  );
  if (rows.length === 0) return 0;
  await directSql(db).query(upsertBorrowRates(rows, at));
  return rows.length;
}

/** A venue's stored borrow rates for an asset from `from` (inclusive) to `to` (exclusive), oldest first. */
export async function borrowHistory(db: Db, exchange: string, asset: string, from: Date, to: Date): Promise<StoredBorrowRate[]> {
  const rows = await db.borrowRate.findMany({ where: { exchange, asset, time: { gte: from, lt: to } }, orderBy: { time: "asc" } });
  return rows.map(({ observedAt: _observedAt, ...row }) => ({ ...row, period: borrowPeriodSchema.parse(row.period) }));
}

/** The round's spot venues as stored on it and logged: what the operator sees of each spot venue. */
export function spotVenueSummary(results: readonly SpotVenueResult[]) {
  return results.map((r) => ({
    venue: r.venue,
    exchange: r.exchange,
    status: r.status,
    legs: r.status === "ok" ? r.legs.length : 0,
    borrow_rates: r.status === "ok" ? r.legs.filter((leg) => leg.borrow !== null).length : 0,
    error: r.status === "stale" ? r.error.slice(0, 500) : null,
  }));
}

/** Records the round's spot venues on it. */
export function roundSpotVenues(roundId: string, results: readonly SpotVenueResult[]): SqlStatement {
  return { text: `UPDATE "IngestionRound" SET "spotVenues" = $1::jsonb WHERE id = $2`, values: [JSON.stringify(spotVenueSummary(results)), roundId] };
}
