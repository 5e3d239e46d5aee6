import type { Db } from "@/lib/db";
import type { SampleSettlement } from "../sample/sample-history";

/** Rows a statement: 7 parameters each, well under PostgreSQL's 65,535 a statement. */
const ROWS_PER_INSERT = 2_000;

/**
 * Stores the offline sample's recorded settlements as backfilled history. Rows already stored for
 * the same (exchange, market, time) are left as they are, so a restart, or a second process doing
 * the same at once, adds nothing, and history an install stored itself is never overwritten.
 * Returns how many rows were added.
 */
export async function storeSampleHistory(db: Db, settlements: readonly SampleSettlement[]): Promise<number> {
  let added = 0;
  for (let from = 0; from < settlements.length; from += ROWS_PER_INSERT) {
    const { count } = await db.fundingRate.createMany({
      data: settlements.slice(from, from + ROWS_PER_INSERT).map((s) => ({
        exchange: s.exchange,
        market: s.market,
        base: s.base,
        time: new Date(s.time),
        rate: s.rate,
        intervalHours: s.intervalHours,
        source: "backfill",
      })),
      skipDuplicates: true,
    });
    added += count;
  }
  return added;
}
