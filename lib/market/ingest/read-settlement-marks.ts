import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import type { SettlementMark } from "../market";

/**
 * Every stored settlement of one asset on one venue, reduced to market, time, interval and source,
 * by market then time: the rows coverage is computed from. Through the driver itself (lib/db/direct-sql.ts),
 * times as epoch milliseconds made by the database: years of hourly settlements are tens of
 * thousands of rows, which Prisma would turn into objects with Dates first. The primary key
 * (exchange, market, time) cannot serve a filter on the asset; the (exchange, base, time) index does.
 */
export function readSettlementMarks(db: Db, exchange: string, symbol: string): Promise<SettlementMark[]> {
  return directSql(db).query<SettlementMark>({
    text: `
    SELECT market, (extract(epoch FROM time) * 1000)::float8 AS time, "intervalHours", source
    FROM "FundingRate"
    WHERE exchange = $1 AND base = $2
    ORDER BY market, time`,
    values: [exchange, symbol],
  });
}
