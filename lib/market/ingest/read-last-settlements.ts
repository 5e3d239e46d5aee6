import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { marketKey } from "../market-average";

/** How far back a market's last settlement is looked for: a day holds one of every interval venues use. */
const LOOKBACK_MS = 24 * 3_600_000;

/** Each market's newest recorded settlement since a day before `at`, by `marketKey`: the legs' `last_settled_*`. */
export async function readLastSettlements(db: Db, at: Date): Promise<Map<string, { rate: number; at: number }>> {
  // A row a market, read by the driver itself (lib/db/direct-sql.ts) while the round fetches.
  const rows = await directSql(db).query<{ exchange: string; market: string; rate: number; time: Date }>({
    text: `
    SELECT DISTINCT ON (exchange, market) exchange, market, rate, time
    FROM "FundingRate"
    WHERE time > $1::timestamp(3) AND time <= $2::timestamp(3)
    ORDER BY exchange, market, time DESC`,
    values: [new Date(at.getTime() - LOOKBACK_MS).toISOString(), at.toISOString()],
  });
  return new Map(rows.map((r) => [marketKey(r.exchange, r.market), { rate: r.rate, at: r.time.getTime() }]));
}
