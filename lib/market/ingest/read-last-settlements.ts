import type { Db } from "@/lib/db";
import { marketKey } from "../market-average";

/** How far back a market's last settlement is looked for: a day holds one of every interval venues use. */
const LOOKBACK_MS = 24 * 3_600_000;

/** Each market's newest recorded settlement since a day before `at`, by `marketKey`: the legs' `last_settled_*`. */
export async function readLastSettlements(db: Db, at: Date): Promise<Map<string, { rate: number; at: number }>> {
  const rows = await db.$queryRaw<{ exchange: string; market: string; rate: number; time: Date }[]>`
    SELECT DISTINCT ON (exchange, market) exchange, market, rate, time
    FROM "FundingRate"
    WHERE time > ${new Date(at.getTime() - LOOKBACK_MS)} AND time <= ${at}
    ORDER BY exchange, market, time DESC`;
  return new Map(rows.map((r) => [marketKey(r.exchange, r.market), { rate: r.rate, at: r.time.getTime() }]));
}
