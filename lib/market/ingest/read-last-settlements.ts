import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { marketKey } from "../model/market-average";

/** How far back a market's last settlement is looked for: a day holds one of every interval venues use. */
export const LAST_SETTLEMENT_LOOKBACK_MS = 24 * 3_600_000;

/** Each market's newest recorded settlement since a day before `at`, by `marketKey`: the legs' `last_settled_*`. */
export async function readLastSettlements(db: Db, at: Date): Promise<Map<string, { rate: number; at: number }>> {
  // A row a market, read by the driver itself (lib/db/direct-sql.ts) while the round fetches. The
  // newest row of each market is the greatest [time, rate] pair, found by hashing the day's rows
  // (a day at 20 venues × 600 assets is ~115,000) rather than sorting them: DISTINCT ON would sort
  // them on disk at PostgreSQL's default work_mem. Both as float8, which the driver
  // reads exactly: epoch seconds with their milliseconds, and the rate as stored.
  const rows = await directSql(db).query<{ exchange: string; market: string; rate: number; at: number }>({
    text: `
    SELECT exchange, market, round(last[1] * 1000)::float8 AS at, last[2] AS rate
    FROM (
      SELECT exchange, market, max(ARRAY[extract(epoch FROM time)::float8, rate]) AS last
      FROM "FundingRate"
      WHERE time > $1::timestamp(3) AND time <= $2::timestamp(3)
      GROUP BY exchange, market
    ) newest`,
    values: [new Date(at.getTime() - LAST_SETTLEMENT_LOOKBACK_MS).toISOString(), at.toISOString()],
  });
  return new Map(rows.map((r) => [marketKey(r.exchange, r.market), { rate: r.rate, at: r.at }]));
}
